// Highlights the code blocks of an already-sanitized body with PrismJS, at build time.
// PrismJS escapes its output, so the result is as safe as its input.
import Prism from "prismjs";
import { decodeHTML } from "entities";
import { GrammarNotLoaded } from "../errors-data.ts";
import { grammars } from "./prism-grammars.ts";
import { grammarEntries, grammarsToLoad, list } from "./prism-load-order.ts";

const aliases = new Map<string, string>();
for (const [id, entry] of grammarEntries) {
  aliases.set(id, id);
  for (const alias of list(entry.alias)) aliases.set(alias, id);
}

// Any `language-x` in a body, sanitized or not: a word that is not a fence's costs a few grammars at most.
const LANGUAGE_CLASS = /\blanguage-([A-Za-z0-9_+#.-]+)/g;
const CODE_TAG = /<code/i;
// A fence in Markdown code: PrismJS highlights it as it highlights the Markdown, in its language
// when that is loaded, so it is loaded with the Markdown. PrismJS's own rule: three backticks at
// the start of a line, and the first word after them once "#" is "sharp" and "++" is "pp".
const MARKDOWN_FENCE = /^```(.+)/gm;
const fenceLanguage = (info: string) =>
  /[a-z][\w-]*/i.exec(info.replace(/\b#/g, "sharp").replace(/\b\+\+/g, "pp"))?.[0].toLowerCase();

/**
 * The text a body's languages are looked for in. The sanitizer keeps a code block's class as the
 * HTML parser decodes it, so `class="language&#45;python"` is a Python block: a body with code and
 * character references is read decoded too (the decoder the parser uses; it decodes at least what
 * the parser decodes in an attribute, so no language the sanitizer keeps is missed). Else a
 * commenter could stop the build with a grammar nobody loaded.
 */
function languageText(html: string): string {
  return html.includes("&") && CODE_TAG.test(html) ? `${html}\n${decodeHTML(html)}` : html;
}

/** Grammars loaded here (PrismJS's module cache runs each file once, but says nothing). */
const loaded = new Set<string>();

/** The grammars a body's code blocks are highlighted with: their languages, and Markdown's fences'. */
function languagesOf(html: string, into: Set<string>): void {
  const text = languageText(html);
  let markdown = false;
  for (const [, name] of text.matchAll(LANGUAGE_CLASS)) {
    const id = aliases.get(name!.toLowerCase());
    if (id !== undefined) into.add(id);
    markdown ||= id === "markdown";
  }
  if (!markdown) return;
  // Tags become line breaks: a block that starts with a fence has it right after <code>.
  for (const [, info] of decodeHTML(html.replace(/<[^>]*>/g, "\n")).matchAll(MARKDOWN_FENCE)) {
    const name = fenceLanguage(info!);
    const id = name === undefined ? undefined : aliases.get(name);
    if (id !== undefined) into.add(id);
  }
}

/**
 * Loads the PrismJS grammars for the code blocks of these bodies, each with every grammar that
 * decides how it highlights, in one fixed order (prism-load-order.ts): a body highlights the same
 * whatever was loaded before it. Grammars load through dynamic imports, so this is asynchronous;
 * call it before highlighting, which is not.
 */
export async function loadLanguagesOf(htmlBodies: Iterable<string>): Promise<void> {
  const wanted = new Set<string>();
  for (const html of htmlBodies) languagesOf(html, wanted);
  // PrismJS's core comes with HTML, CSS, C-like and JavaScript; a grammar that only changes others
  // (js-extras) names no language of its own, so what this module loaded is remembered too.
  const loading = grammarsToLoad(wanted, (id) => loaded.has(id) || Prism.languages[id] !== undefined);
  if (loading.length === 0) return;
  // The grammar files are scripts that extend the global Prism.
  (globalThis as { Prism?: typeof Prism }).Prism = Prism;
  // A module runs once, so a grammar already loaded is never reloaded (PrismJS's own loader would).
  for (const id of loading) {
    await grammars[id]!();
    loaded.add(id);
  }
}

/**
 * PrismJS's grammar id for a fence's language name, or undefined when PrismJS does not know it as
 * a language: a component that only changes others (js-extras) names none, and a commenter's
 * ```js-extras must not stop the build.
 */
export function resolveLanguage(name: string): string | undefined {
  const id = aliases.get(name.toLowerCase());
  if (id === undefined) return undefined;
  if (!Prism.languages[id]) {
    if (loaded.has(id)) return undefined;
    throw new Error(GrammarNotLoaded.message(id));
  }
  return id;
}

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

function decodeText(html: string): string {
  return html.replace(/<[^>]*>/g, "").replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (match, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : match;
    }
    return entities[ref.toLowerCase()] ?? match;
  });
}

// The sanitizer writes code blocks in exactly this form (it rewrites every tag it keeps).
const CODE_BLOCK = /<pre><code class="language-([A-Za-z0-9_+#.-]+)">([\s\S]*?)<\/code><\/pre>/g;

export interface HighlightResult {
  html: string;
  /** Fence languages PrismJS did not know; those blocks stay plain escaped code. */
  unknownLanguages: string[];
}

/** Replaces each `<pre><code class="language-x">` block of sanitized HTML with PrismJS tokens. */
export function highlightCodeBlocks(sanitizedHtml: string): HighlightResult {
  const unknownLanguages: string[] = [];
  const html = sanitizedHtml.replace(CODE_BLOCK, (block, language: string, inner: string) => {
    const id = resolveLanguage(language);
    if (id === undefined) {
      unknownLanguages.push(language);
      return block;
    }
    const grammar = Prism.languages[id]!;
    const highlighted = Prism.highlight(decodeText(inner), grammar, id);
    return `<pre class="language-${id}"><code class="language-${id}">${highlighted}</code></pre>`;
  });
  return { html, unknownLanguages };
}

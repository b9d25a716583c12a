// Highlights the code blocks of an already-sanitized body with PrismJS, at build time.
// PrismJS escapes its output, so the result is as safe as its input.
import Prism from "prismjs";
import componentsJson from "prismjs/components.json" with { type: "json" };
import getLoader, { type ComponentEntry, type Components } from "prismjs/dependencies.js";
import { decodeHTML } from "entities";
import { GrammarNotLoaded } from "../errors-data.ts";
import { grammars } from "./prism-grammars.ts";

const components = componentsJson as Components;
const aliases = new Map<string, string>();
for (const [id, entry] of Object.entries(componentsJson.languages)) {
  if (id === "meta" || typeof entry === "string") continue;
  aliases.set(id, id);
  for (const alias of [(entry as ComponentEntry).alias ?? []].flat()) aliases.set(alias, id);
}

// Any `language-x` in a body, sanitized or not: a word that is not a fence's costs one grammar at most.
const LANGUAGE_CLASS = /\blanguage-([A-Za-z0-9_+#.-]+)/g;
const CODE_TAG = /<code/i;

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

/**
 * Loads the PrismJS grammars (and the grammars they build on, in PrismJS's order) for the code
 * blocks of these bodies. Grammars load through dynamic imports, so this is asynchronous; call it
 * before highlighting, which is not.
 */
export async function loadLanguagesOf(htmlBodies: Iterable<string>): Promise<void> {
  const wanted = new Set<string>();
  for (const html of htmlBodies) {
    for (const [, name] of languageText(html).matchAll(LANGUAGE_CLASS)) {
      const id = aliases.get(name!.toLowerCase());
      if (id !== undefined && !Prism.languages[id]) wanted.add(id);
    }
  }
  if (wanted.size === 0) return;
  // The grammar files are scripts that extend the global Prism.
  (globalThis as { Prism?: typeof Prism }).Prism = Prism;
  // A module runs once, so a grammar already loaded is never reloaded (PrismJS's own loader would).
  for (const id of getLoader(components, [...wanted], Object.keys(Prism.languages)).getIds()) {
    if (!Prism.languages[id]) await grammars[id]!();
  }
}

/** PrismJS's grammar id for a fence's language name, or undefined when PrismJS does not know it. */
export function resolveLanguage(name: string): string | undefined {
  const id = aliases.get(name.toLowerCase());
  if (id === undefined) return undefined;
  if (!Prism.languages[id]) throw new Error(GrammarNotLoaded.message(id));
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

// Highlights the code blocks of an already-sanitized body with PrismJS, at build time.
// PrismJS escapes its output, so the result is as safe as its input.
import { createRequire } from "node:module";
import Prism from "prismjs";

// prismjs/components is CommonJS and loads grammars with require().
const require = createRequire(import.meta.url);
const loadLanguages = require("prismjs/components/index.js") as (languages: string[]) => void;
const components = require("prismjs/components.json") as {
  languages: Record<string, { alias?: string | string[] } | string>;
};

const aliases = new Map<string, string>();
for (const [id, entry] of Object.entries(components.languages)) {
  if (id === "meta" || typeof entry === "string") continue;
  aliases.set(id, id);
  for (const alias of [entry.alias ?? []].flat()) aliases.set(alias, id);
}

const loaded = new Set<string>();

/** PrismJS's grammar id for a fence's language name, or undefined when PrismJS does not know it. */
export function resolveLanguage(name: string): string | undefined {
  const id = aliases.get(name.toLowerCase());
  if (id === undefined) return undefined;
  if (!loaded.has(id)) {
    // loadLanguages reports unknown ids through console.warn, never by throwing; the alias map
    // above already filters those out.
    loadLanguages([id]);
    loaded.add(id);
  }
  return Prism.languages[id] ? id : undefined;
}

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

function decodeText(html: string): string {
  return html
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (match, ref: string) => {
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

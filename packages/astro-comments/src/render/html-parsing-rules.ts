// Two parsing rules the sanitizer has to mirror: how htmlparser2 will read the markup the sanitizer
// writes, and where a browser ends an element that htmlparser2 reads differently.

const closedByBlocks: ReadonlySet<string> = new Set(["p"]);
const closedByDefinitions: ReadonlySet<string> = new Set(["dd", "dt"]);
const closedBySections: ReadonlySet<string> = new Set(["thead", "tbody"]);

/**
 * Start tags that make htmlparser2 close the innermost open element first, while it is one of the
 * listed ones: its `openImpliesClose` table, limited to the elements a sanitized comment contains.
 * The sanitizer closes those elements itself before writing such a start tag. Otherwise dropping or
 * unwrapping an element between, say, two `<p>`s would nest them in the output, and parsing that
 * output again would close the first one early: sanitizing would not be idempotent.
 */
export const impliedEndTags: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ["tr", new Set(["tr", "th", "td"])],
  ["th", new Set(["th"])],
  ["td", new Set(["thead", "th", "td"])],
  ["a", new Set(["a"])],
  ["li", new Set(["li"])],
  ["dd", closedByDefinitions],
  ["dt", closedByDefinitions],
  ["tbody", closedBySections],
  ["tfoot", closedBySections],
  ...["p", "blockquote", "dl", "hr", "ol", "pre", "table", "ul"].map((tag) => [tag, closedByBlocks] as const),
]);

function isEndTagBoundary(code: number): boolean {
  // HTML whitespace, `/` or `>`; NaN past the end of the input is none of them.
  return (
    code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d || code === 0x20 || code === 0x2f || code === 0x3e
  );
}

/**
 * Where a browser ends a raw-text element that htmlparser2 parses as markup (`<noscript>`, raw text
 * for a browser with scripting on): at the first case-insensitive `</name` followed by whitespace,
 * `/` or `>` from `from` on; at the end of the input when there is none. `name` is lowercase ASCII.
 */
export function rawTextEnd(source: string, name: string, from: number): number {
  for (let at = source.indexOf("</", from); at !== -1; at = source.indexOf("</", at + 2)) {
    let matched = true;
    for (let i = 0; i < name.length && matched; i++) {
      // Setting bit 5 lowercases ASCII letters; name is lowercase already.
      matched = (source.charCodeAt(at + 2 + i) | 0x20) === name.charCodeAt(i);
    }
    if (matched && isEndTagBoundary(source.charCodeAt(at + 2 + name.length))) return at;
  }
  return source.length;
}

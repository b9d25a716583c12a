// How Laravel sees a query string: PHP's parser (last duplicate wins, `name[]` builds a list),
// then the default TrimStrings and ConvertEmptyStringsToNull middleware.

export type PhpQueryValue = string | null | PhpQueryValue[];
export type PhpQuery = Map<string, PhpQueryValue>;

// PHP's trim() default set, used by TrimStrings (it does not trim \f).
const phpTrim = (value: string): string => value.replace(/^[ \t\n\r\v\0]+|[ \t\n\r\v\0]+$/g, "");

function decodeComponent(raw: string): string {
  const spaced = raw.replace(/\+/g, " ");
  try {
    return decodeURIComponent(spaced);
  } catch {
    // PHP's urldecode keeps malformed escapes as they are instead of failing.
    return spaced.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}

function normalize(value: string): string | null {
  const trimmed = phpTrim(value);
  return trimmed === "" ? null : trimmed;
}

/** Parses a raw query string (without `?`) the way a Laravel request's input() sees it. */
export function parsePhpQuery(rawQuery: string): PhpQuery {
  const query: PhpQuery = new Map();
  for (const pair of rawQuery.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    // PHP turns spaces and dots in names into underscores.
    const name = decodeComponent(eq === -1 ? pair : pair.slice(0, eq)).replace(/[ .]/g, "_");
    const value = normalize(decodeComponent(eq === -1 ? "" : pair.slice(eq + 1)));
    const bracket = name.indexOf("[");
    if (bracket > 0) {
      const base = name.slice(0, bracket);
      const existing = query.get(base);
      const list = Array.isArray(existing) ? existing : [];
      list.push(value);
      query.set(base, list);
    } else if (name !== "") {
      query.set(name, value);
    }
  }
  return query;
}

/** The query as Prism's validator expects it: strings or lists of strings, nulls left out. */
export function toPrismQuery(query: PhpQuery): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of query) {
    if (value === null) continue;
    out[name] = Array.isArray(value) ? value.map((item) => (typeof item === "string" ? item : "")) : value;
  }
  return out;
}

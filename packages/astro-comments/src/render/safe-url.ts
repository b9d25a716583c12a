// Where a link in a comment may point. The verdict is the WHATWG URL parser's, the same algorithm
// browsers run on href, never a pattern: a value passes only when it parses as an absolute URL
// whose scheme is http, https or mailto. Relative, protocol-relative and fragment-only values fail
// to parse without a base, so they never pass.

const linkProtocols: ReadonlySet<string> = new Set(["http:", "https:", "mailto:"]);

/**
 * The serialized URL when `value` (already entity-decoded) is an absolute http(s) or mailto URL,
 * otherwise undefined.
 *
 * The serialization, not the value as given, is what a link gets: it is the exact URL that was
 * checked, in a canonical form (tabs, newlines and surrounding spaces the parser ignores are gone,
 * scheme and host lowercased, unsafe characters percent-encoded), so what a browser follows does not
 * depend on how leniently it re-parses the attribute. Serializing is idempotent, which keeps
 * sanitizing idempotent.
 */
export function safeLinkUrl(value: string): string | undefined {
  const url = URL.parse(value);
  return url !== null && linkProtocols.has(url.protocol) ? url.href : undefined;
}

// PHP http_build_query(..., PHP_QUERY_RFC3986): rawurlencode keeps only A-Z a-z 0-9 - _ . ~
function rawUrlEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function buildQuery(params: ReadonlyArray<readonly [string, string]>): string {
  return params.map(([name, value]) => `${rawUrlEncode(name)}=${rawUrlEncode(value)}`).join("&");
}

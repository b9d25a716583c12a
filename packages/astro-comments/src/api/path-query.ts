// The list endpoint narrowed to one page: the API's exact-match `path` parameter. The client keeps
// every query parameter of the endpoint it is given and sets its own (domain, per_page, page) on
// top, so a crawl of this endpoint is a crawl of that page's comments.
export function pathEndpoint(endpoint: URL, path: string): URL {
  const url = new URL(endpoint);
  url.searchParams.set("path", path);
  return url;
}

/**
 * The spellings a page's comments may be stored under. The API matches `path` exactly, and
 * browsers report a page with or without its trailing slash, so both are asked for.
 */
export function storedSpellings(key: string): string[] {
  return key === "/" ? ["/"] : [key, `${key}/`];
}

// Reading a server island the way a browser does: the page, then the URL it preloads. Every body and
// header read is kept, so a test can assert that none of them holds the token.

export interface Received {
  status: number;
  headers: Headers;
  body: string;
}

/** A GET that records what came back into `received`. */
export function recordingGet(received: string[]): (base: string, path: string) => Promise<Received> {
  return async (base, path) => {
    const response = await fetch(new URL(path, base));
    const body = await response.text();
    received.push(body, JSON.stringify([...response.headers]));
    return { status: response.status, headers: response.headers, body };
  };
}

/** The comments section of an HTML document or fragment. */
export const section = (html: string) => /<section class="astro-comments"[\s\S]*?<\/section>/.exec(html)?.[0];

/** The island's URL as the page preloads it (a GET: cacheable). */
export const islandUrl = (html: string) =>
  /<link rel="preload" as="fetch" href="([^"]+)"/.exec(html)![1]!.replaceAll("&amp;", "&");

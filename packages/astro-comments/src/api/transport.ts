// The wire under the client (http-client.ts): one GET, its status, headers and body as bytes.
// The default sends with the platform's standard `fetch`, which every runtime Astro deploys to has
// (Node, workerd, Deno, Bun), so the runtime modes (the live loader, the server island) bundle no
// HTTP stack of their own. The build's crawl passes undici's pooled client (undici-transport.ts)
// instead: only Node runs it.
import { runtimeLimits, type RuntimeLimit } from "../errors-data.ts";

/** An answer whose headers have arrived; its body arrives as it is read. */
interface WireResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string | string[] | undefined>;
  /** The body's bytes (after any Content-Encoding is undone). Stopping early cancels the rest. */
  body: AsyncIterable<Uint8Array>;
}

interface Wire {
  /** Sends a GET and never follows a redirect: a 3xx comes back as the answer. */
  get(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<WireResponse>;
  close(): Promise<void>;
  /**
   * Settles once the wire can send, or never will (then `get` says why): awaited before a
   * request's clock starts, so loading an HTTP client is not charged to the service's time.
   */
  ready?(): Promise<void>;
}

/** Makes one client's wire: at most `connections` open, attempts cut after `timeoutMs`. */
export type Transport = (settings: { connections: number; timeoutMs: number }) => Wire;

/** A runtime that cannot send at all: no retry can help; `limit` says why and what to do. */
export class WireUnavailable extends Error {
  readonly limit: RuntimeLimit;
  constructor(limit: RuntimeLimit) {
    super(limit.reason);
    this.limit = limit;
  }
}

async function* bytesOf(body: ReadableStream<Uint8Array> | null): AsyncIterable<Uint8Array> {
  if (body === null) return;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // A body left half read (too large, aborted) is cancelled, so its connection is let go.
    reader.cancel().catch(() => undefined);
  }
}

/**
 * The platform's `fetch`. Redirects are refused (`redirect: "manual"`), so the Authorization header
 * never travels to another address. The body is counted after decompression by the client, which
 * stops reading at its size limit, so a compressed bomb is cut there.
 */
export const fetchTransport: Transport = () => ({
  async get(url, headers, signal) {
    if (typeof globalThis.fetch !== "function") throw new WireUnavailable(runtimeLimits.noFetch);
    const response = await globalThis.fetch(url, { method: "GET", headers, signal, redirect: "manual" });
    return { status: response.status, headers: Object.fromEntries(response.headers), body: bytesOf(response.body) };
  },
  close: async () => undefined,
});

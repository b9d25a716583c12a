// The last requests the mock answered, for the page: what a site's build asked for and got.
// Method, path and query, status and time only: never a header, so never the bearer token.
import type { IncomingMessage, ServerResponse } from "node:http";

export interface LoggedRequest {
  /** When it arrived, ISO 8601 UTC. */
  at: string;
  method: string;
  /** Path and query as sent. */
  target: string;
  /** The status sent, or "dropped" for a connection closed before a complete answer (an outage, a fault). */
  status: number | "dropped";
  /** From arrival to the end of the answer (or the connection), in milliseconds. */
  ms: number;
}

export class RequestLog {
  readonly #entries: LoggedRequest[] = [];
  readonly #size: number;

  constructor(size: number) {
    this.#size = size;
  }

  /** Records the request once its answer is complete or its connection gone. */
  watch(req: IncomingMessage, res: ServerResponse): void {
    const started = Date.now();
    res.once("close", () => {
      this.#entries.push({
        at: new Date(started).toISOString(),
        method: req.method ?? "GET",
        target: req.url ?? "/",
        status: res.writableFinished ? res.statusCode : "dropped",
        ms: Date.now() - started,
      });
      if (this.#entries.length > this.#size) this.#entries.shift();
    });
  }

  /** Newest first. */
  entries(): LoggedRequest[] {
    return this.#entries.toReversed();
  }
}

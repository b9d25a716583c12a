// An outage switched on and off while the server runs, so a test can make a first build succeed
// and the next one meet a dead, stuck or failing service. Unlike the seeded FaultPlan, it hits
// every /api/comments request until switched off.
import type { IncomingMessage, ServerResponse } from "node:http";
import { jsonHeaders, send } from "./http-response.ts";
import { InvalidInputError } from "./invalid-input.ts";

export const outageModes = ["down", "hang", "trickle", "500", "off"] as const;
export type OutageMode = (typeof outageModes)[number];

// 4 bytes a second, forever: a client's idle timeout keeps being reset; only an overall deadline helps.
const TRICKLE_BYTES = "    ";
const TRICKLE_INTERVAL_MS = 1_000;

export class Outage {
  #mode: OutageMode = "off";

  set(mode: OutageMode): void {
    if (!(outageModes as readonly unknown[]).includes(mode)) {
      throw new InvalidInputError(`Cannot switch the outage to ${JSON.stringify(mode)}: use one of ${outageModes.join(", ")}.`);
    }
    this.#mode = mode;
  }

  /** Answers the request as the outage does and returns true; false while the service is up. */
  intercept(req: IncomingMessage, res: ServerResponse, head: boolean): boolean {
    switch (this.#mode) {
      case "off":
        return false;
      case "down":
        req.socket.destroy();
        return true;
      case "hang":
        // No answer at all; the socket closes with the client or with the server's close().
        return true;
      case "500":
        send(res, 500, { message: "Server Error" }, head);
        return true;
      case "trickle": {
        // A page that starts like a real one, then only JSON whitespace, forever: still parseable
        // so far, never complete. No content-length, so the client cannot tell how much is left.
        res.writeHead(200, jsonHeaders);
        res.write('{"data":[');
        const timer = setInterval(() => res.write(TRICKLE_BYTES), TRICKLE_INTERVAL_MS);
        res.on("close", () => clearInterval(timer));
        return true;
      }
    }
  }
}

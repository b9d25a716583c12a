// An outage switched on and off while the server runs, so a test can make a first build succeed
// and the next one meet a dead, stuck or failing service. Unlike the seeded FaultPlan, it hits
// every /api/comments request until switched off.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FaultSettings } from "./faults.ts";
import { jsonHeaders, send } from "./http-response.ts";
import { InvalidInputError } from "./invalid-input.ts";

export const outageModes = ["down", "hang", "trickle", "500", "off"] as const;
export type OutageMode = (typeof outageModes)[number];

// 4 bytes a second, forever: a client's idle timeout keeps being reset; only an overall deadline helps.
const TRICKLE_BYTES = "    ";
const TRICKLE_INTERVAL_MS = 1_000;

export class Outage {
  #mode: OutageMode = "off";

  get mode(): OutageMode {
    return this.#mode;
  }

  set(mode: OutageMode): void {
    if (!(outageModes as readonly unknown[]).includes(mode)) {
      throw new InvalidInputError(
        `Cannot switch the outage to ${JSON.stringify(mode)}: use one of ${outageModes.join(", ")}.`,
      );
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

const rates = ["errorRate", "dropRate"] as const;
const faultFields = new Set(["latencyMs", ...rates, "rateLimit"]);
// Ten minutes: beyond any client's timeout, so a longer latency is a typo.
const MAX_LATENCY_MS = 600_000;

/** Checks an untyped change of the runtime faults (the admin route's JSON body, the page's form). */
export function parseFaultChange(body: unknown): Partial<FaultSettings> {
  const fail = (problem: string) => new InvalidInputError(`Cannot switch the faults: ${problem}`);
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw fail('send a JSON object such as {"latencyMs":500,"errorRate":0.1}.');
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => !faultFields.has(key));
  if (unknown.length > 0)
    throw fail(`unknown field ${unknown.join(", ")}; the fields are ${[...faultFields].join(", ")}.`);
  const isNumber = (value: unknown, max: number, integer = false): value is number =>
    typeof value === "number" &&
    Number.isFinite(value) &&
    value >= 0 &&
    value <= max &&
    (!integer || Number.isInteger(value));
  if (fields.latencyMs !== undefined && !isNumber(fields.latencyMs, MAX_LATENCY_MS, true))
    throw fail(`send "latencyMs" as whole milliseconds from 0 to ${MAX_LATENCY_MS}.`);
  for (const rate of rates)
    if (fields[rate] !== undefined && !isNumber(fields[rate], 1)) throw fail(`send "${rate}" as a share from 0 to 1.`);
  const limit = fields.rateLimit as { limit?: unknown; windowMs?: unknown } | null | undefined;
  if (limit !== undefined && limit !== null) {
    const keys = typeof limit === "object" && !Array.isArray(limit) ? Object.keys(limit) : [];
    const ok =
      keys.every((key) => key === "limit" || key === "windowMs") &&
      isNumber(limit.limit, Number.MAX_SAFE_INTEGER, true) &&
      limit.limit >= 1 &&
      isNumber(limit.windowMs, Number.MAX_SAFE_INTEGER, true) &&
      limit.windowMs >= 1;
    if (!ok)
      throw fail(
        'send "rateLimit" as {"limit": requests per period (1 or more), "windowMs": the period in milliseconds}, or null for none.',
      );
  }
  return fields as Partial<FaultSettings>;
}

// Fault injection for consumers' resilience tests. Decisions hash (seed, request, attempt), so a
// run is reproducible however concurrent requests interleave.
import { hashSeed, seededRandom } from "./random.ts";

export interface FaultOptions {
  /** Seed of every fault decision. Default 1. */
  seed?: number;
  /** Added to every response, in milliseconds. */
  latencyMs?: number;
  /** Share (0..1) of responses delayed by `latencySpikeMs` on top of `latencyMs`. */
  latencySpikeRate?: number;
  latencySpikeMs?: number;
  /** Share (0..1) of requests answered with 500 or 503. */
  errorRate?: number;
  /** Share (0..1) of requests whose connection is dropped (before or in the middle of the body). */
  dropRate?: number;
  /**
   * Fixed-window throttle per token, as Laravel's throttle middleware: 429 with Retry-After.
   * `now` is the clock its windows run on (ms, default Date.now): a test that runs the client on a
   * virtual clock passes the same one, so a window closes when the client waits it out, never
   * because the machine is slow.
   * @example { limit: 60, windowMs: 60_000 }
   */
  rateLimit?: { limit: number; windowMs: number; now?: () => number };
  /**
   * No request fails more than this many times in a row, so a client with that many retries
   * always gets through. Default 3.
   */
  maxConsecutiveFaults?: number;
  /** After this many list requests, approve `count` pending comments: the total changes mid-crawl. */
  approveDuringCrawl?: { afterRequests: number; count: number };
}

export type FaultDecision =
  | { kind: "none"; delayMs: number }
  | { kind: "error"; status: 500 | 503; delayMs: number }
  | { kind: "drop"; midBody: boolean; delayMs: number };

/** The faults that can be switched while the mock runs (from the admin routes, CLI and page). */
export interface FaultSettings {
  latencyMs: number;
  errorRate: number;
  dropRate: number;
  /** null: no rate limit. */
  rateLimit: { limit: number; windowMs: number } | null;
}

export class FaultPlan {
  #options: FaultOptions;
  #limiter: FixedWindowLimiter | undefined;
  readonly #attempts = new Map<string, number>();
  readonly #consecutive = new Map<string, number>();

  constructor(options: FaultOptions = {}) {
    this.#options = options;
    this.#limiter = limiterOf(options.rateLimit);
  }

  get settings(): FaultSettings {
    const o = this.#options;
    return {
      latencyMs: o.latencyMs ?? 0,
      errorRate: o.errorRate ?? 0,
      dropRate: o.dropRate ?? 0,
      rateLimit: o.rateLimit ?? null,
    };
  }

  /** Switches faults from the next request on; a changed rate limit starts with a fresh window. */
  update(change: Partial<FaultSettings>): FaultSettings {
    const { rateLimit, ...rest } = change;
    this.#options = { ...this.#options, ...rest };
    if (rateLimit !== undefined) {
      this.#options = { ...this.#options, rateLimit: rateLimit ?? undefined };
      this.#limiter = limiterOf(rateLimit ?? undefined);
    }
    return this.settings;
  }

  /** Laravel's throttle, when a rate limit is set. */
  get limiter(): FixedWindowLimiter | undefined {
    return this.#limiter;
  }

  get enabled(): boolean {
    const o = this.#options;
    return Boolean(o.latencyMs || o.latencySpikeRate || o.errorRate || o.dropRate);
  }

  /** What happens to the next request with this key (method + normalized query). */
  decide(key: string): FaultDecision {
    const o = this.#options;
    const attempt = this.#attempts.get(key) ?? 0;
    this.#attempts.set(key, attempt + 1);
    const roll = seededRandom(hashSeed(o.seed ?? 1, key, attempt));
    const spike = roll() < (o.latencySpikeRate ?? 0) ? (o.latencySpikeMs ?? 0) : 0;
    const delayMs = (o.latencyMs ?? 0) + spike;
    const streak = this.#consecutive.get(key) ?? 0;
    const dropRoll = roll();
    const errorRoll = roll();
    const variant = roll();
    let decision: FaultDecision = { kind: "none", delayMs };
    if (streak < (o.maxConsecutiveFaults ?? 3)) {
      if (dropRoll < (o.dropRate ?? 0)) decision = { kind: "drop", midBody: variant < 0.5, delayMs };
      else if (errorRoll < (o.errorRate ?? 0)) decision = { kind: "error", status: variant < 0.5 ? 500 : 503, delayMs };
    }
    this.#consecutive.set(key, decision.kind === "none" ? 0 : streak + 1);
    return decision;
  }
}

const limiterOf = (limit: FaultOptions["rateLimit"]) =>
  limit ? new FixedWindowLimiter(limit.limit, limit.windowMs, limit.now) : undefined;

/** Laravel's fixed-window limiter: the first hit opens a window; hits beyond the limit get 429. */
export class FixedWindowLimiter {
  readonly #windows = new Map<string, { endsAt: number; hits: number }>();
  readonly limit: number;
  readonly windowMs: number;
  readonly #now: () => number;
  constructor(limit: number, windowMs: number, now: () => number = Date.now) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.#now = now;
  }

  hit(
    key: string,
  ): { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number; resetAt: number } {
    const now = this.#now();
    let window = this.#windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { endsAt: now + this.windowMs, hits: 0 };
      this.#windows.set(key, window);
    }
    if (window.hits >= this.limit) {
      const retryAfterSeconds = Math.max(0, Math.ceil((window.endsAt - now) / 1000));
      return { allowed: false, retryAfterSeconds, resetAt: Math.ceil(now / 1000) + retryAfterSeconds };
    }
    window.hits++;
    return { allowed: true, remaining: this.limit - window.hits };
  }
}

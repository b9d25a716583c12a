// The service's rate limit, seen by the whole crawl at once. A 429 pauses every request, not just
// the one that got it: no request starts until the Retry-After has passed, and requests in flight
// that are refused join the same pause. X-RateLimit-Remaining is honoured on the way, so once the
// service says the limit is spent, the crawl sends one request to learn how long to wait (only a
// 429 says that) instead of several that must fail.
// Time spent here is charged to a per-crawl budget (rateLimitWait), never to a request's
// giveUpAfter, which is for services that are down or hung. Pure apart from the injected clock.

import { brandedInstance, hasBrand } from "./brand.ts";

export interface GateClock {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
}

/** What the service announced on its last answers. */
export interface RateLimitHeaders {
  limit: number | undefined;
  remaining: number | undefined;
  /** X-RateLimit-Reset, as milliseconds from now (undefined when absent). */
  resetInMs: number | undefined;
}

/** One crawl's allowance of rate-limit waiting, in ms, and who hears of the pauses it starts. */
export interface WaitBudget {
  readonly limitMs: number;
  /** The crawl's time spent paused: requests waiting out the same pause together count it once. */
  waitedMs: number;
  /** Until when the pauses have been counted (on the gate's clock). */
  countedUntil?: number;
  /** Told once per pause this crawl starts (a refused request that joins a pause already on says nothing). */
  onPause?: ((pause: Pause) => void) | undefined;
}

export interface Pause {
  waitMs: number;
  /** X-RateLimit-Limit, when the service sends it. */
  limit: number | undefined;
  /** How long the service's counting period looks, from the first request of this period to its end. */
  periodMs: number | undefined;
  /** Retry-After in seconds, when the service sent one. */
  retryAfter: number | undefined;
}

const budgetExceededBrand = Symbol.for("astro-comments.RateLimitBudgetExceeded");

/**
 * Thrown by the gate when a pause would overrun the crawl's budget; the client turns it into a
 * CommentsApiError. Branded: the gate is shared through globalThis, so the copy of the package
 * that throws it is often not the copy whose client catches it.
 */
export class RateLimitBudgetExceeded extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, budgetExceededBrand);
  }
  readonly pause: Pause;
  readonly budget: WaitBudget;
  constructor(pause: Pause, budget: WaitBudget) {
    super("rate-limit wait budget exceeded");
    brandedInstance(this, budgetExceededBrand);
    this.pause = pause;
    this.budget = budget;
  }
}

export interface Admission {
  /** Milliseconds this request waited at the gate (not charged to its giveUpAfter). */
  waitedMs: number;
  /** Reports the answer's rate-limit headers and frees the request's place. */
  leave(headers: RateLimitHeaders | undefined): void;
}

/** What a crawl may spend waiting on rate limits when nobody says otherwise: ten minutes. */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 600_000;

// Without Retry-After, repeated 429s back off up to this; with one, a service that keeps answering
// "retry after 0" is still not hammered.
const MIN_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;
const JITTER_MS = 250;

export class RateLimitGate {
  readonly #clock: GateClock;
  /** Set while a pause is on: when it ends. */
  #pausedUntil = 0;
  /** When the current counting period began (the first request after the last pause). */
  #periodStart: number | undefined;
  /** Bumped by every pause: answers to requests sent before it say nothing about the new period. */
  #epoch = 0;
  #limit: number | undefined;
  #remaining: number | undefined;
  #resetAt: number | undefined;
  #inFlight = 0;
  /** Pauses since the last answer that was not a 429. */
  #consecutivePauses = 0;
  #waiting: Array<() => void> = [];

  constructor(clock: GateClock) {
    this.#clock = clock;
  }

  /** Waits until a request may be sent, and counts it as in flight. */
  async enter(budget: WaitBudget): Promise<Admission> {
    let waitedMs = 0;
    for (;;) {
      const now = this.#clock.now();
      if (this.#pausedUntil > now) {
        const wait = this.#pausedUntil - now;
        const uncounted = this.#pausedUntil - Math.max(now, budget.countedUntil ?? 0);
        if (uncounted > 0) {
          if (budget.waitedMs + uncounted > budget.limitMs)
            throw new RateLimitBudgetExceeded(this.#describe(wait, undefined), budget);
          budget.waitedMs += uncounted;
          budget.countedUntil = this.#pausedUntil;
        }
        waitedMs += wait;
        await this.#clock.sleep(wait);
        continue;
      }
      if (!this.#spent()) break;
      if (this.#inFlight > 0) {
        // Someone's answer will say more (a 429 with its Retry-After, or a new count).
        await new Promise<void>((resolve) => this.#waiting.push(resolve));
        continue;
      }
      if (this.#resetAt !== undefined && this.#resetAt > now) {
        // The service said when its period ends: wait for that instead of a request that must fail.
        this.#startPause(this.#resetAt - now, undefined, budget);
        continue;
      }
      // Spent, nobody in flight, no reset time: one request finds out (a 429 says how long to wait).
      break;
    }
    // Sent although the count said the limit was spent: its answer tells whether a new period began.
    const probe = this.#spent();
    this.#inFlight++;
    this.#periodStart ??= this.#clock.now();
    const epoch = this.#epoch;
    let left = false;
    return {
      waitedMs,
      leave: (headers) => {
        if (left) return;
        left = true;
        this.#inFlight--;
        if (headers !== undefined && epoch === this.#epoch) this.#note(headers, probe);
        this.#wake();
      },
    };
  }

  /**
   * A 429: pauses the whole crawl for Retry-After (plus a little jitter, so many builds do not
   * come back in lockstep), or backs off when the service gave no Retry-After. A refusal that
   * arrives while a pause already covers its wait joins it.
   */
  refused(retryAfter: number | undefined, headers: RateLimitHeaders, budget: WaitBudget): void {
    if (headers.limit !== undefined) this.#limit = headers.limit;
    const now = this.#clock.now();
    // Sent before the pause began, refused for the same reason: it waits with the others.
    if (this.#pausedUntil > now && (retryAfter === undefined || now + retryAfter * 1000 <= this.#pausedUntil)) return;
    const backoff = Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS * 2 ** this.#consecutivePauses);
    const asked = retryAfter === undefined ? backoff : retryAfter * 1000;
    this.#consecutivePauses++;
    // "Retry-After: 0" again and again would be a busy loop: from the third pause in a row, back off too.
    const waitMs = Math.floor(
      (this.#consecutivePauses > 2 ? Math.max(asked, backoff) : asked) + this.#clock.random() * JITTER_MS,
    );
    this.#startPause(waitMs, retryAfter, budget);
  }

  #startPause(waitMs: number, retryAfter: number | undefined, budget: WaitBudget): void {
    const pause = this.#describe(waitMs, retryAfter);
    if (budget.waitedMs + waitMs > budget.limitMs) throw new RateLimitBudgetExceeded(pause, budget);
    this.#pausedUntil = this.#clock.now() + waitMs;
    this.#epoch++;
    this.#periodStart = undefined;
    this.#remaining = undefined;
    this.#resetAt = undefined;
    budget.onPause?.(pause);
    this.#wake();
  }

  #describe(waitMs: number, retryAfter: number | undefined): Pause {
    const now = this.#clock.now();
    const periodMs =
      this.#periodStart === undefined || retryAfter === undefined
        ? undefined
        : now - this.#periodStart + retryAfter * 1000;
    return { waitMs, limit: this.#limit, periodMs, retryAfter };
  }

  /**
   * Answers arrive out of order, so within a period the lowest count is the true one. An answer to
   * a probe that was let through is the first of a new period (the service's own ran out without a
   * 429): its count replaces the old one, or the crawl would go on one request at a time.
   */
  #note(headers: RateLimitHeaders, probe: boolean): void {
    this.#consecutivePauses = 0;
    if (headers.limit !== undefined) this.#limit = headers.limit;
    if (probe) this.#periodStart = this.#clock.now();
    if (headers.remaining !== undefined)
      this.#remaining =
        this.#remaining === undefined || probe ? headers.remaining : Math.min(this.#remaining, headers.remaining);
    if (headers.resetInMs !== undefined) this.#resetAt = this.#clock.now() + headers.resetInMs;
  }

  /** The service said its limit is used up, counting the requests still in flight. */
  #spent(): boolean {
    return this.#remaining !== undefined && this.#remaining - this.#inFlight <= 0;
  }

  #wake(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }
}

/** Words for the limit in log lines and errors: "60 requests a minute", or what is known of it. */
export function describeLimit(limit: number | undefined, periodMs: number | undefined): string {
  if (limit === undefined) return "";
  const near = (target: number) => periodMs !== undefined && Math.abs(periodMs - target) <= target * 0.1;
  const per = near(60_000)
    ? " a minute"
    : near(3_600_000)
      ? " an hour"
      : near(1_000)
        ? " a second"
        : periodMs !== undefined
          ? ` per ${Math.round(periodMs / 1000)} s`
          : "";
  return `${limit} request${limit === 1 ? "" : "s"}${per}`;
}

/** The X-RateLimit-* headers of an answer. */
export function readRateLimitHeaders(
  headers: Record<string, string | string[] | undefined>,
  wallNow: number,
): RateLimitHeaders {
  const number = (name: string) => {
    const raw = headers[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    return value !== undefined && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
  };
  const reset = number("x-ratelimit-reset");
  // An epoch timestamp (Laravel, GitHub) or, from some services, seconds from now.
  const resetInMs =
    reset === undefined ? undefined : reset > 1_000_000_000 ? Math.max(0, reset * 1000 - wallNow) : reset * 1000;
  return { limit: number("x-ratelimit-limit"), remaining: number("x-ratelimit-remaining"), resetInMs };
}

const gates = Symbol.for("astro-comments.rate-limit-gates");

/**
 * The gate for one service and token, shared by every crawl in this process: a dev server's
 * refresh or the live loader's next request waits out a pause an earlier crawl began.
 * (The integration and the loader are two instances of this package in one process, hence
 * globalThis.)
 */
export function sharedGate(key: string, clock: GateClock): RateLimitGate {
  const scope = globalThis as { [gates]?: Map<string, RateLimitGate> };
  const all = (scope[gates] ??= new Map());
  let gate = all.get(key);
  if (gate === undefined) all.set(key, (gate = new RateLimitGate(clock)));
  return gate;
}

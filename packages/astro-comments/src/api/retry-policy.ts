// When to try again and how long to wait. Pure: randomness and time are passed in.

export interface RetryPolicy {
  /** Retries after the first attempt for network errors, timeouts and 5xx. */
  retries: number;
  /** First backoff ceiling in ms; doubles per retry. */
  baseDelayMs: number;
  /** Backoff ceiling in ms. */
  maxDelayMs: number;
  /** Everything one request may spend (attempts and waits) before it fails, in ms. */
  giveUpAfterMs: number;
}

// With 5 retries the waits add up to 10–20 s: long enough for a service to restart, short enough
// that a dead one fails the fetch well within a minute.
export const defaultRetryPolicy: RetryPolicy = {
  retries: 5,
  baseDelayMs: 800,
  maxDelayMs: 8_000,
  giveUpAfterMs: 50_000,
};

/**
 * Exponential backoff with "equal jitter": uniform in [c/2, c) for c = min(max, base * 2^retry).
 * Half of each wait is guaranteed, so the retries really do span the window; the random half keeps
 * many builds from retrying in lockstep.
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.floor(ceiling / 2 + random() * (ceiling / 2));
}

/** Seconds to wait from a Retry-After header (delta-seconds or an HTTP date); undefined if absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

export type StatusClass = "ok" | "retry" | "rate-limited" | "fatal";

export function classifyStatus(status: number): StatusClass {
  if (status >= 200 && status < 300) return "ok";
  if (status === 429) return "rate-limited";
  if (status >= 500 || status === 408) return "retry";
  return "fatal";
}

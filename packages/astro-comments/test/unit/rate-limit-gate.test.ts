// The crawl-wide rate-limit gate on a fake clock: one pause for every request, the announced
// remaining count honoured, the budget enforced, and words for the limit.
import { describe, expect, it } from "vitest";
import {
  describeLimit,
  RateLimitBudgetExceeded,
  RateLimitGate,
  readRateLimitHeaders,
  type Pause,
  type WaitBudget,
} from "../../src/api/rate-limit-gate.ts";

function fakeClock() {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    advance: (ms: number) => (now += ms),
    clock: {
      now: () => now,
      random: () => 0,
      // Sleepers that start together wake together, as on a real clock.
      sleep: async (ms: number) => {
        sleeps.push(ms);
        const until = now + ms;
        await Promise.resolve();
        now = Math.max(now, until);
      },
    },
  };
}

const budget = (limitMs = 600_000): WaitBudget & { pauses: Pause[] } => {
  const pauses: Pause[] = [];
  return { limitMs, waitedMs: 0, pauses, onPause: (pause) => pauses.push(pause) };
};
const headers = (limit?: number, remaining?: number) => ({ limit, remaining, resetInMs: undefined });

describe("rate-limit gate", () => {
  it("pauses every request once for a 429's Retry-After; refusals in flight join the same pause", async () => {
    const { clock, sleeps } = fakeClock();
    const gate = new RateLimitGate(clock);
    const crawl = budget();
    const a = await gate.enter(crawl);
    const b = await gate.enter(crawl);
    gate.refused(58, headers(60, 0), crawl);
    a.leave(undefined);
    gate.refused(58, headers(60, 0), crawl);
    b.leave(undefined);
    expect(crawl.pauses).toHaveLength(1);
    expect(crawl.pauses[0]).toMatchObject({ waitMs: 58_000, limit: 60, retryAfter: 58 });
    const [next, other] = await Promise.all([gate.enter(crawl), gate.enter(crawl)]);
    expect(next.waitedMs).toBe(58_000);
    expect(other.waitedMs).toBe(58_000);
    expect(sleeps).toEqual([58_000, 58_000]);
    // Two requests waited out one pause: the crawl spent 58 s, not 116 s, of its budget.
    expect(crawl.waitedMs).toBe(58_000);
  });

  it("sends no request the announced remaining count says must fail, only one that learns the wait", async () => {
    const { clock } = fakeClock();
    const gate = new RateLimitGate(clock);
    const crawl = budget();
    const first = await gate.enter(crawl);
    const second = await gate.enter(crawl);
    first.leave(headers(3, 1));
    // One left, one in flight: a third request must wait for the second's answer.
    let thirdIn = false;
    const third = gate.enter(crawl).then((admission) => ((thirdIn = true), admission));
    await Promise.resolve();
    expect(thirdIn).toBe(false);
    second.leave(headers(3, 0));
    // Spent and nobody in flight: the third goes, as the one request that finds out how long to wait.
    const probe = await third;
    let fourthIn = false;
    const fourth = gate.enter(crawl).then((admission) => ((fourthIn = true), admission));
    await Promise.resolve();
    expect(fourthIn).toBe(false);
    gate.refused(30, headers(3, 0), crawl);
    probe.leave(undefined);
    expect((await fourth).waitedMs).toBe(30_000);
    expect(crawl.pauses).toHaveLength(1);
  });

  it("goes back to full concurrency when the probe finds that a new period began without a 429", async () => {
    const { clock } = fakeClock();
    const gate = new RateLimitGate(clock);
    const crawl = budget();
    (await gate.enter(crawl)).leave(headers(60, 0));
    // The service's period ran out on its own: the probe is answered, with a fresh count.
    (await gate.enter(crawl)).leave(headers(60, 59));
    const admitted = await Promise.all([1, 2, 3, 4, 5, 6].map(() => gate.enter(crawl)));
    expect(admitted).toHaveLength(6);
    expect(crawl.pauses).toEqual([]);
  });

  it("waits for X-RateLimit-Reset instead of probing when the service says when its period ends", async () => {
    const { clock, sleeps } = fakeClock();
    const gate = new RateLimitGate(clock);
    const crawl = budget();
    (await gate.enter(crawl)).leave({ limit: 5, remaining: 0, resetInMs: 12_000 });
    expect((await gate.enter(crawl)).waitedMs).toBe(12_000);
    expect(sleeps).toEqual([12_000]);
  });

  it("fails at once when a pause would overrun the crawl's budget, without sleeping", async () => {
    const { clock, sleeps } = fakeClock();
    const gate = new RateLimitGate(clock);
    const crawl = budget(60_000);
    await gate.enter(crawl);
    expect(() => gate.refused(3600, headers(60, 0), crawl)).toThrow(RateLimitBudgetExceeded);
    expect(sleeps).toEqual([]);
  });

  it("charges each crawl only for what it waits, and backs off when the service gives no Retry-After", async () => {
    const { clock } = fakeClock();
    const gate = new RateLimitGate(clock);
    const crawl = budget();
    const a = await gate.enter(crawl);
    gate.refused(undefined, headers(undefined, undefined), crawl);
    a.leave(undefined);
    const b = await gate.enter(crawl);
    gate.refused(undefined, headers(undefined, undefined), crawl);
    b.leave(undefined);
    await gate.enter(crawl);
    expect(crawl.pauses.map((pause) => pause.waitMs)).toEqual([1_000, 2_000]);
    expect(crawl.waitedMs).toBe(3_000);
  });

  it("words the limit from what the service announced and how long its period looks", () => {
    expect(describeLimit(60, 61_000)).toBe("60 requests a minute");
    expect(describeLimit(1000, 3_580_000)).toBe("1000 requests an hour");
    expect(describeLimit(10, 25_000)).toBe("10 requests per 25 s");
    expect(describeLimit(60, undefined)).toBe("60 requests");
    expect(describeLimit(undefined, 60_000)).toBe("");
  });

  it("reads X-RateLimit-* headers, taking Reset as an epoch time or as seconds from now", () => {
    expect(
      readRateLimitHeaders(
        { "x-ratelimit-limit": "60", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1700000060" },
        1_700_000_000_000,
      ),
    ).toEqual({ limit: 60, remaining: 0, resetInMs: 60_000 });
    expect(readRateLimitHeaders({ "x-ratelimit-reset": "30" }, 0)).toEqual({
      limit: undefined,
      remaining: undefined,
      resetInMs: 30_000,
    });
    expect(readRateLimitHeaders({ "x-ratelimit-remaining": "soon" }, 0).remaining).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { FaultPlan, FixedWindowLimiter } from "../src/faults.ts";
import { startMockServer } from "../src/index.ts";
import { get } from "./helpers.ts";

describe("fault plan", () => {
  it("is deterministic per seed and independent of how requests interleave", () => {
    const keys = Array.from({ length: 200 }, (_, i) => `q${i % 40}`);
    const run = (order: string[], seed: number) => {
      const plan = new FaultPlan({ seed, errorRate: 0.3, dropRate: 0.1 });
      const byKey = new Map<string, string[]>();
      for (const key of order) byKey.set(key, [...(byKey.get(key) ?? []), plan.decide(key).kind]);
      return Object.fromEntries([...byKey].sort());
    };
    expect(run(keys, 5)).toEqual(run([...keys].reverse(), 5));
    expect(run(keys, 5)).not.toEqual(run(keys, 6));
  });

  it("never fails one request more than maxConsecutiveFaults times in a row", () => {
    const plan = new FaultPlan({ seed: 1, errorRate: 1, maxConsecutiveFaults: 2 });
    expect(Array.from({ length: 6 }, () => plan.decide("k").kind)).toEqual([
      "error",
      "error",
      "none",
      "error",
      "error",
      "none",
    ]);
  });

  it("throttles with a fixed window like Laravel", () => {
    let now = 1_000_000;
    const limiter = new FixedWindowLimiter(2, 60_000, () => now);
    expect(limiter.hit("t")).toEqual({ allowed: true, remaining: 1 });
    expect(limiter.hit("t")).toEqual({ allowed: true, remaining: 0 });
    now += 58_000;
    expect(limiter.hit("t")).toEqual({ allowed: false, retryAfterSeconds: 2, resetAt: 1060 });
    now += 2_000;
    expect(limiter.hit("t")).toEqual({ allowed: true, remaining: 1 });
  });
});

describe("fault knobs on the server", () => {
  it("answer 429 with Retry-After and X-RateLimit headers past the limit", async () => {
    // The limiter's clock stands still at the test's start: Retry-After is the whole window however
    // long the three requests take on a busy machine.
    const startedAt = Date.now();
    const mock = await startMockServer({
      dataset: { size: 50 },
      faults: { rateLimit: { limit: 2, windowMs: 60_000, now: () => startedAt } },
    });
    try {
      const ok = await get(mock.url, "domain=example.com", mock.token);
      expect(ok.headers.get("x-ratelimit-remaining")).toBe("1");
      await get(mock.url, "domain=example.com", mock.token);
      const limited = await get(mock.url, "domain=example.com", mock.token);
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ message: "Too Many Attempts." });
      expect(limited.headers.get("retry-after")).toBe("60");
      expect(limited.headers.get("x-ratelimit-limit")).toBe("2");
      expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(Number(limited.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
    } finally {
      await mock.close();
    }
  });

  it("drop connections and answer 5xx as the seed says, the same on every run", async () => {
    const outcomes = async () => {
      const mock = await startMockServer({ dataset: { size: 50 }, faults: { seed: 3, errorRate: 0.3, dropRate: 0.2 } });
      try {
        const seen: string[] = [];
        for (let i = 0; i < 30; i++) {
          seen.push(
            await get(mock.url, `domain=example.com&per_page=${(i % 5) + 1}`, mock.token).then(
              (a) => String(a.status),
              () => "dropped",
            ),
          );
        }
        return seen;
      } finally {
        await mock.close();
      }
    };
    const first = await outcomes();
    expect(first).toEqual(await outcomes());
    expect(first).toContain("dropped");
    expect(first.some((s) => s === "500" || s === "503")).toBe(true);
    expect(first).toContain("200");
  });

  it("approves pending comments mid-crawl, changing meta.total", async () => {
    const mock = await startMockServer({
      dataset: { seed: 2, size: 300 },
      faults: { approveDuringCrawl: { afterRequests: 2, count: 3 } },
    });
    try {
      const before = ((await get(mock.url, "domain=example.com", mock.token)).body as { meta: { total: number } }).meta
        .total;
      const after = ((await get(mock.url, "domain=example.com", mock.token)).body as { meta: { total: number } }).meta
        .total;
      expect(after).toBeGreaterThan(before);
    } finally {
      await mock.close();
    }
  });
});

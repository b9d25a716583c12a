// A crawl against the mock with every fault knob on yields exactly the fault-free result.
import { startMockServer } from "@astro-comments/mock-server";
import { describe, expect, it } from "vitest";
import { collectThreads, crawlAllPages } from "../src/api/crawl.ts";
import { createCommentsClient } from "../src/api/http-client.ts";
import { recordingSleep } from "./helpers/servers.ts";

async function crawl(url: string, token: string) {
  const client = createCommentsClient({
    endpoint: new URL("/api/comments", url),
    token,
    domain: "example.com",
    // Bounds only a hang: the mock answers at once, and a busy machine must not turn that into a timeout.
    timeoutMs: 30_000,
    connections: 6,
    maxResponseBytes: 10_000_000,
    random: () => 0.5,
    sleep: recordingSleep().sleep,
    retryPolicy: { retries: 4 },
  });
  try {
    const result = await crawlAllPages({
      collect: collectThreads,
      fetchPage: client.fetchPage,
      endpoint: url,
      perPage: 25,
      concurrency: 6,
    });
    return { result, retries: client.retries };
  } finally {
    await client.close();
  }
}

describe("faults", () => {
  it("5xx, drops, latency spikes, rate limits and a mid-crawl approval change nothing in the result", async () => {
    const dataset = { seed: 11, size: 800 };
    let faultyRetries = 0;
    const crawls: number[] = [];
    for (const seed of [1, 2, 3, 4, 5]) {
      const faulty = await startMockServer({
        dataset,
        faults: {
          seed,
          errorRate: 0.25,
          dropRate: 0.15,
          latencyMs: 2,
          latencySpikeRate: 0.1,
          latencySpikeMs: 30,
          rateLimit: { limit: 400, windowMs: 60_000 },
          maxConsecutiveFaults: 3,
          approveDuringCrawl: { afterRequests: 3, count: 2 },
        },
      });
      // The reference: a fault-free mock holding the same final data (the approvals applied).
      const clean = await startMockServer({ dataset });
      clean.store.approvePending(2);
      try {
        const [withFaults, withoutFaults] = [
          await crawl(faulty.url, faulty.token),
          await crawl(clean.url, clean.token),
        ];
        expect(withFaults.result.result).toEqual(withoutFaults.result.result);
        expect(withFaults.result.total).toBe(withoutFaults.result.total);
        crawls.push(withFaults.result.crawls);
        faultyRetries += withFaults.retries;
      } finally {
        await faulty.close();
        await clean.close();
      }
    }
    expect(faultyRetries).toBeGreaterThan(20);
    // The approval lands mid-crawl for most seeds (for some it lands while page 1 is retried).
    expect(crawls.filter((n) => n > 1).length).toBeGreaterThanOrEqual(3);
  });
});

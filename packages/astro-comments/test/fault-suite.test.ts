// The fault suite: output under faults is identical to the fault-free output, for many seeds;
// permanent failures stop the build with one clear message and no output.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockServer, type FaultOptions } from "@astro-comments/mock-server";
import type { AstroIntegrationLogger } from "astro";
import { describe, expect, it } from "vitest";
import { fetchComments } from "../src/fetch-comments.ts";
import { resolveOptions } from "../src/options.ts";
import { astroBuild, listFiles } from "./helpers/astro-cli.ts";
import { recordingSleep, serve } from "./helpers/servers.ts";

const dataset = { seed: 21, size: 1500 };
const APPROVED_MID_CRAWL = 3;
// No rate limit here: these runs record backoff instead of sleeping, while the mock's throttle
// window runs on real time. 429 with real Retry-After waits is covered by the full builds below.
const faultsFor = (seed: number): FaultOptions => ({
  seed, errorRate: 0.2, dropRate: 0.1, latencyMs: 1, latencySpikeRate: 0.05, latencySpikeMs: 40,
  maxConsecutiveFaults: 3, approveDuringCrawl: { afterRequests: 4, count: APPROVED_MID_CRAWL },
});

const silentLogger = () => {
  const lines: string[] = [];
  const logger = {
    info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m), debug: () => undefined,
    fork: () => logger, label: "astro-comments", options: {},
  } as unknown as AstroIntegrationLogger;
  return { logger, lines };
};

async function storeFrom(url: string, token: string): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), "ac-store-")), "comments.json");
  const options = resolveOptions({ perPage: 20, concurrency: 6 }, { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: url, COMMENTS_API_TOKEN: token });
  await fetchComments(options, file, silentLogger().logger, { sleep: recordingSleep().sleep, random: () => 0.5 });
  return readFileSync(file, "utf8");
}

const identities = (storeJson: string) =>
  Object.values(JSON.parse(storeJson).pages as Record<string, { comments: Array<{ createdAt: string; author: string; path: string; replies: unknown[] }> }>)
    .flatMap((page) => page.comments)
    .map((c) => `${c.createdAt}|${c.author}|${c.path}`);

describe("fault suite", () => {
  it("20 seeds of faults: every store identical to the fault-free one, nothing lost or duplicated", async () => {
    const clean = await startMockServer({ dataset });
    clean.store.approvePending(APPROVED_MID_CRAWL);
    const reference = await storeFrom(clean.url, clean.token);
    await clean.close();
    const referenceIds = identities(reference);
    let identical = 0;
    let lost = 0;
    let duplicated = 0;
    const seeds = Array.from({ length: 20 }, (_, i) => i + 1);
    for (const seed of seeds) {
      const faulty = await startMockServer({ dataset, faults: faultsFor(seed) });
      try {
        const store = await storeFrom(faulty.url, faulty.token);
        const ids = identities(store);
        if (store === reference) identical++;
        lost += referenceIds.filter((id) => !ids.includes(id)).length;
        duplicated += ids.length - new Set(ids).size;
      } finally {
        await faulty.close();
      }
    }
    console.info(`fault suite (fetch): ${seeds.length} builds tried, ${identical} identical, ${lost} comments lost, ${duplicated} duplicated`);
    expect({ identical, lost, duplicated }).toEqual({ identical: seeds.length, lost: 0, duplicated: 0 });
  }, 120_000);
});

/** Every output file, by path relative to the output folder, with its contents. */
function tree(dir: string): Record<string, string> {
  return Object.fromEntries(listFiles(dir).map((file) => [file.slice(dir.length), readFileSync(file, "utf8")]));
}

describe("fault suite: full astro builds", () => {
  it("builds with every fault on produce byte-identical sites", async () => {
    const clean = await startMockServer({ dataset: { seed: 1 } });
    clean.store.approvePending(APPROVED_MID_CRAWL);
    const reference = await astroBuild({ COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: clean.url, COMMENTS_API_TOKEN: clean.token });
    await clean.close();
    expect(reference.code, reference.log).toBe(0);
    const expected = tree(reference.out);
    for (const seed of [1, 2, 3]) {
      const faulty = await startMockServer({ dataset: { seed: 1 }, faults: { ...faultsFor(seed), rateLimit: { limit: 6, windowMs: 1_000 }, approveDuringCrawl: { afterRequests: 2, count: APPROVED_MID_CRAWL } } });
      try {
        const build = await astroBuild({ COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: faulty.url, COMMENTS_API_TOKEN: faulty.token });
        expect(build.code, build.log).toBe(0);
        expect(build.log).toMatch(/retrying .* \((HTTP 5\d\d|HTTP 429|UND_ERR|other side closed|ECONNRESET|socket)/);
        expect(tree(build.out)).toEqual(expected);
      } finally {
        await faulty.close();
      }
    }
  }, 180_000);

  it("a permanent outage fails the build with one clear message and no output", async () => {
    const down = await serve(() => undefined);
    const url = down.url;
    await down.close();
    const build = await astroBuild({ COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: url, COMMENTS_API_TOKEN: "t" });
    expect(build.code).not.toBe(0);
    expect(build.log).toContain(`could not reach the comments API after 5 attempts (ECONNREFUSED`);
    expect(build.log).toContain(`${url}/api/comments?domain=example.com&per_page=50&page=1`);
    expect(existsSync(join(build.out, "index.html"))).toBe(false);
  }, 60_000);

  it("an HTML page with status 200 fails the build naming what was wrong", async () => {
    const proxy = await serve((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!DOCTYPE html><html><body>Maintenance</body></html>"));
    try {
      const build = await astroBuild({ COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: proxy.url, COMMENTS_API_TOKEN: "t" });
      expect(build.code).not.toBe(0);
      expect(build.log).toContain("expected JSON but the response is text/html");
      expect(build.log).toContain("COMMENTS_API_URL may point at a web page");
      expect(existsSync(join(build.out, "index.html"))).toBe(false);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});

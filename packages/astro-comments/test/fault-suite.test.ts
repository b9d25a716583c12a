// The fault suite: output under faults is identical to the fault-free output, for many seeds;
// permanent failures stop the build with one clear message and no output.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startMockServer, type FaultOptions } from "@astro-comments/mock-server";
import { afterAll, describe, expect, it } from "vitest";
import type { PageCommentsData } from "../src/loader/entry-schema.ts";
import { resolveOptions } from "../src/integration/options.ts";
import { syncComments } from "../src/loader/sync-comments.ts";
import { astroBuild, BUILD_TIMEOUT_MS, listFiles } from "./helpers/astro-cli.ts";
import { loaderContext, storedComments } from "./helpers/loader-context.ts";
import { recordingSleep, serve } from "./helpers/servers.ts";
import { copySite, type SiteCopy } from "./helpers/site-copy.ts";

const dataset = { seed: 21, size: 1500 };
const APPROVED_MID_CRAWL = 3;
// No rate limit here: these runs record backoff instead of sleeping, while the mock's throttle
// window runs on real time. 429 with real Retry-After waits is covered by the full builds below.
const faultsFor = (seed: number): FaultOptions => ({
  seed,
  errorRate: 0.2,
  dropRate: 0.1,
  latencyMs: 1,
  latencySpikeRate: 0.05,
  latencySpikeMs: 40,
  maxConsecutiveFaults: 3,
  approveDuringCrawl: { afterRequests: 4, count: APPROVED_MID_CRAWL },
});

/** The pages' comments one sync stores, as JSON in id order: what the pages are built from. */
async function storeFrom(url: string, token: string): Promise<string> {
  const { context } = loaderContext();
  const options = resolveOptions(
    { perPage: 20, concurrency: 6 },
    { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: url, COMMENTS_API_TOKEN: token },
  );
  const clock = recordingSleep();
  await syncComments(context, { options, command: "build" }, { sleep: clock.sleep, now: clock.now, random: () => 0.5 });
  const pages = [...(await storedComments(context))].sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify(pages);
}

const identities = (storeJson: string) =>
  (JSON.parse(storeJson) as Array<[string, PageCommentsData]>)
    .flatMap(([, page]) => page.comments)
    .map((c) => `${c.createdAt}|${c.author}|${c.path}`);

describe("fault suite", () => {
  it(
    "20 seeds of faults: every store identical to the fault-free one, nothing lost or duplicated",
    async () => {
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
      console.info(
        `fault suite (fetch): ${seeds.length} builds tried, ${identical} identical, ${lost} comments lost, ${duplicated} duplicated`,
      );
      expect({ identical, lost, duplicated }).toEqual({ identical: seeds.length, lost: 0, duplicated: 0 });
    },
    BUILD_TIMEOUT_MS,
  );
});

/** Every output file, by path relative to the output folder, with its contents. */
function tree(dir: string): Record<string, string> {
  return Object.fromEntries(listFiles(dir).map((file) => [file.slice(dir.length), readFileSync(file, "utf8")]));
}

// The three tests run at once, each building its own copy of the site (builds of one copy would
// share Astro's data store and caches): the outage spends most of its build waiting out the
// client's backoff (about 16 s), time the other builds use.
describe.concurrent("fault suite: full astro builds", () => {
  const sites: SiteCopy[] = [];
  afterAll(() => {
    for (const site of sites) site.remove();
  });
  /** A fresh copy of the site, and `astro build` of it. */
  function siteBuild(name: string): (env: Record<string, string>) => ReturnType<typeof astroBuild> {
    const site = copySite(name);
    sites.push(site);
    return (env) => astroBuild(env, undefined, site.dir);
  }

  it(
    "builds with every fault on produce byte-identical sites",
    async ({ expect }) => {
      const build = siteBuild("fault-suite");
      const clean = await startMockServer({ dataset: { seed: 1 } });
      clean.store.approvePending(APPROVED_MID_CRAWL);
      const reference = await build({
        COMMENTS_DOMAIN: "example.com",
        COMMENTS_API_URL: clean.url,
        COMMENTS_API_TOKEN: clean.token,
      });
      await clean.close();
      expect(reference.code, reference.log).toBe(0);
      const expected = tree(reference.out);
      for (const seed of [1, 2, 3]) {
        const faulty = await startMockServer({
          dataset: { seed: 1 },
          faults: {
            ...faultsFor(seed),
            rateLimit: { limit: 6, windowMs: 1_000 },
            approveDuringCrawl: { afterRequests: 2, count: APPROVED_MID_CRAWL },
          },
        });
        try {
          const faultyBuild = await build({
            COMMENTS_DOMAIN: "example.com",
            COMMENTS_API_URL: faulty.url,
            COMMENTS_API_TOKEN: faulty.token,
          });
          expect(faultyBuild.code, faultyBuild.log).toBe(0);
          expect(faultyBuild.log).toMatch(
            /retrying .* \((HTTP 5\d\d|HTTP 429|UND_ERR|other side closed|ECONNRESET|socket)/,
          );
          expect(tree(faultyBuild.out)).toEqual(expected);
        } finally {
          await faulty.close();
        }
      }
    },
    4 * BUILD_TIMEOUT_MS,
  );

  it(
    "a permanent outage fails the build with one clear message and no output",
    async ({ expect }) => {
      const build = siteBuild("fault-suite-outage");
      const down = await serve(() => undefined);
      const url = down.url;
      await down.close();
      const outage = await build({ COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: url, COMMENTS_API_TOKEN: "t" });
      expect(outage.code).not.toBe(0);
      expect(outage.log).toMatch(
        /\[CommentsApiError\] astro-comments: the comments API did not answer: the connection failed before the response: connect ECONNREFUSED .*; gave up after 6 attempts over [\d.]+ s/,
      );
      expect(outage.log).toContain(
        `(${url}/api/comments?domain=example.com&per_page=100&page=1). Check COMMENTS_API_URL`,
      );
      expect(outage.log).toContain("There is no earlier fetch to fall back on");
      // An expected failure prints no stack trace.
      expect(outage.log).not.toMatch(/Stack trace|\n\s+at /);
      expect(existsSync(join(outage.out, "index.html"))).toBe(false);
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    "an HTML page with status 200 fails the build naming what was wrong",
    async ({ expect }) => {
      const build = siteBuild("fault-suite-html");
      const proxy = await serve((_req, res) =>
        res.writeHead(200, { "content-type": "text/html" }).end("<!DOCTYPE html><html><body>Maintenance</body></html>"),
      );
      try {
        const html = await build({
          COMMENTS_DOMAIN: "example.com",
          COMMENTS_API_URL: proxy.url,
          COMMENTS_API_TOKEN: "t",
        });
        expect(html.code).not.toBe(0);
        expect(html.log).toContain('expected JSON but the response is "text/html"');
        expect(html.log).toContain("COMMENTS_API_URL may point at a web page");
        expect(existsSync(join(html.out, "index.html"))).toBe(false);
      } finally {
        await proxy.close();
      }
    },
    BUILD_TIMEOUT_MS,
  );
});

// Large sites against a rate-limited service (the mock's fixed-period throttle, as Laravel's
// throttle middleware counts): the crawl waits the limit out once per period for all its requests,
// says so in one line per pause, and a build against it succeeds. Real time: the mock's limiter
// counts real milliseconds, so the periods here are short.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockServer, type MockServer } from "@astro-comments/mock-server";
import { afterEach, describe, expect, it } from "vitest";
import { collectThreads } from "../src/api/crawl.ts";
import { crawlComments, crawlDefaults, type CrawlLogger } from "../src/api/crawl-comments.ts";
import { CommentsApiError } from "../src/errors.ts";
import { pathKey } from "../src/render/path-key.ts";
import { astroBuild, BUILD_TIMEOUT_MS } from "./helpers/astro-cli.ts";
import { windowsEndOnlyWhenFull } from "../../../mock-server/test/limiter-clock.ts";
import { recordingSleep, virtualClock } from "./helpers/servers.ts";
import { copySite, type SiteCopy } from "./helpers/site-copy.ts";

const TOKEN = "tok-RATE-LIMIT-91c2";
let mock: MockServer | undefined;
let site: SiteCopy | undefined;
afterEach(async () => {
  await mock?.close();
  site?.remove();
  mock = undefined;
  site = undefined;
});

function recordingLogger() {
  const lines: string[] = [];
  const logger: CrawlLogger = {
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    debug: () => undefined,
  };
  return { lines, logger };
}

const credentials = (server: MockServer) => ({
  domain: "example.com",
  endpoint: new URL("/api/comments", server.url),
  apiToken: TOKEN,
});
const pauseLine =
  /^info the comments service's rate limit \((\d+) requests? [^)]*\) was reached after (\d+) of (\d+) pages; waiting (\d+) s$/;

describe("a crawl that needs more requests than the rate limit allows", () => {
  it("waits the limit out at most once per extra period, one info line per pause, and gets every comment", async () => {
    // Virtual time: a two-minute window costs nothing, and it is far above giveUpAfter below.
    const windowMs = 120_000;
    mock = await startMockServer({
      token: TOKEN,
      dataset: { seed: 5, size: 300 },
      faults: { rateLimit: { limit: 1_000_000, windowMs } },
    });
    const threads = mock.store.threads("example.com");
    const perPage = 5;
    const pages = Math.ceil(threads.length / perPage);
    // About 2.5 periods' worth of requests.
    const limit = Math.ceil(pages / 2.5);
    await mock.close();
    // The mock's windows and the crawl's waits on one virtual clock (helpers/servers.ts).
    const clock = virtualClock();
    mock = await startMockServer({
      token: TOKEN,
      dataset: { seed: 5, size: 300 },
      faults: { rateLimit: { limit, windowMs, now: clock.now } },
    });
    const { lines, logger } = recordingLogger();
    // giveUpAfter far below a pause (virtual): rate-limit waits are not charged to it. It also
    // bounds each real attempt, so it stays long enough for a mock on a machine with no core free
    // (0.5 s was not: an attempt timed out under load).
    const { result, summary } = await crawlComments(
      credentials(mock),
      { ...crawlDefaults, perPage, giveUpAfter: 60_000 },
      logger,
      collectThreads,
      clock,
    );

    expect(result).toEqual(mock.store.threads("example.com"));
    const periodsNeeded = Math.ceil(pages / limit);
    expect(periodsNeeded).toBe(3);
    const pauses = lines.filter((line) => line.includes("rate limit"));
    expect(pauses.length).toBeGreaterThanOrEqual(1);
    expect(pauses.length).toBeLessThanOrEqual(periodsNeeded - 1);
    expect(summary.rateLimitPauses).toBe(pauses.length);
    // The crawl's waiting is counted once per pause, however many requests waited it out.
    expect(summary.rateLimitSeconds).toBeLessThanOrEqual(pauses.length * (Math.ceil(windowMs / 1000) + 0.25));
    for (const line of pauses) {
      const [, announced, done, of, seconds] = pauseLine.exec(line) ?? [];
      expect(Number(announced), line).toBe(limit);
      expect(Number(of)).toBe(pages);
      expect(Number(done)).toBeLessThan(pages);
      // Retry-After (whole seconds, at most the period) plus under a second of jitter.
      expect(Number(seconds)).toBeLessThanOrEqual(Math.ceil(windowMs / 1000) + 1);
    }
    expect(lines.filter((line) => line.startsWith("warn"))).toEqual([]);
  });

  it("fails at once when the service asks for a longer wait than rateLimitWait, naming the pages needed and the limit", async () => {
    mock = await startMockServer({
      token: TOKEN,
      dataset: { seed: 5, size: 300 },
      // The mock's clock stands still: Retry-After is the whole hour however long the first requests
      // took (a busy machine took over a second, and the mock asked for 3599 s).
      faults: { rateLimit: { limit: 3, windowMs: 3_600_000, now: () => 0 } },
    });
    const { logger } = recordingLogger();
    // "At once" is nothing waited, not a stopwatch: the clock records every wait the crawl asks for.
    const clock = recordingSleep();
    const error = await crawlComments(
      credentials(mock),
      { ...crawlDefaults, perPage: 5, concurrency: 1 },
      logger,
      collectThreads,
      { now: clock.now, sleep: clock.sleep },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CommentsApiError);
    const pages = Math.ceil(mock.store.threads("example.com").length / 5);
    expect((error as CommentsApiError).message).toMatch(
      new RegExp(
        `^astro-comments: the comments service's rate limit \\(3 requests an hour\\) asks to wait 3600 s \\(Retry-After\\), more than the 600 s left of rateLimitWait \\(600 s\\); this site needs ${pages} pages of 5 comments, 3 fetched so far`,
      ),
    );
    expect((error as CommentsApiError).hint).toContain("rateLimitWait");
    expect(clock.waits).toEqual([]);
  });
});

describe("page size", () => {
  it("asks for 100 a page, and falls back once with one info line when a validating service refuses it (422)", async () => {
    mock = await startMockServer({
      token: TOKEN,
      dataset: { seed: 5, size: 300 },
      maxPerPage: 50,
      perPageLimit: "reject",
    });
    const { lines, logger } = recordingLogger();
    const { result, summary } = await crawlComments(credentials(mock), crawlDefaults, logger, collectThreads);
    expect(result).toEqual(mock.store.threads("example.com"));
    expect(summary.perPage).toBe(50);
    expect(lines.filter((line) => line.includes("a page"))).toEqual([
      "info the comments service does not serve 100 comments a page; asking for 50 (set the perPage option to skip this request)",
    ]);
  });

  it("asks for the maximum the service's error names when that is below 50", async () => {
    mock = await startMockServer({
      token: TOKEN,
      dataset: { seed: 5, size: 300 },
      maxPerPage: 30,
      perPageLimit: "reject",
    });
    const { lines, logger } = recordingLogger();
    const { summary } = await crawlComments(credentials(mock), crawlDefaults, logger, collectThreads);
    expect(summary.perPage).toBe(30);
    expect(summary.requests).toBe(1 + Math.ceil(mock.store.threads("example.com").length / 30));
    expect(lines).toContain(
      "info the comments service does not serve 100 comments a page; asking for 30 (set the perPage option to skip this request)",
    );
  });

  it("keeps a perPage the user pinned, and says which value to set when the service refuses it", async () => {
    mock = await startMockServer({
      token: TOKEN,
      dataset: { seed: 5, size: 300 },
      maxPerPage: 30,
      perPageLimit: "reject",
    });
    const { logger } = recordingLogger();
    const error = await crawlComments(
      credentials(mock),
      { ...crawlDefaults, perPage: 40 },
      logger,
      collectThreads,
    ).catch((caught: unknown) => caught);
    expect((error as CommentsApiError).message).toContain("Set the perPage option to 30 or less.");
  });
});

describe("astro build against a throttled service", () => {
  it(
    "builds every page with every comment, logging one line per pause and no warning",
    async () => {
      // The service serves 10 a page; 8 requests per 1.5 s make the crawl span about three periods.
      // The build waits in real time, but a window ends only once it is full (no pause at all would
      // be a slow machine, not the crawl).
      mock = await startMockServer({
        token: TOKEN,
        maxPerPage: 10,
        faults: { rateLimit: { limit: 8, windowMs: 1_500, now: windowsEndOnlyWhenFull(8, 1_500) } },
      });
      site = copySite("rate-limit");
      const out = join(mkdtempSync(join(tmpdir(), "ac-rate-")), "dist");
      const build = await astroBuild(
        { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: TOKEN },
        out,
        site.dir,
      );
      expect(build.code, build.log).toBe(0);
      const pauses = build.log.split("\n").filter((line) => line.includes("rate limit (8 requests"));
      const pages = Math.ceil(mock.store.threads("example.com").length / 10);
      expect(pauses.length).toBeGreaterThanOrEqual(1);
      expect(pauses.length).toBeLessThanOrEqual(Math.ceil(pages / 8) - 1);
      expect(build.log).not.toMatch(/\[WARN\]/);
      expect(build.log).toMatch(/\d+ requests of 10, [\d.]+ MiB, \d+ rate-limit pauses? \(\d+ s\)\)/);
      const helloWorld = mock.store
        .threads("example.com")
        .filter((thread) => pathKey(thread.path) === "/posts/hello-world");
      const expected = helloWorld.reduce((n, thread) => n + 1 + thread.children.length, 0);
      expect(expected).toBeGreaterThan(0);
      expect(
        readFileSync(join(out, "posts", "hello-world", "index.html"), "utf8").match(/<article [^>]*data-comment /g),
      ).toHaveLength(expected);
    },
    BUILD_TIMEOUT_MS,
  );
});

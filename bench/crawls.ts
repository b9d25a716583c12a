// The crawl alone, against the bench's mock: the package's own crawl (the call every build makes,
// with its defaults) and one request after another at the same page size, next to the bounds they
// are judged by: the crawl's ideal (page 1, then the rest in waves) and issue 17's network floor F.
import { request } from "undici";
import { collectThreads } from "../packages/astro-comments/src/api/crawl.ts";
import { crawlComments, crawlDefaults, type CrawlLogger } from "../packages/astro-comments/src/api/crawl-comments.ts";
import type { Credentials } from "../packages/astro-comments/src/api/credentials.ts";
import { undiciTransport } from "../packages/astro-comments/src/api/undici-transport.ts";

export interface CrawlRun {
  seconds: number;
  requests: number;
  bytes: number;
  threads: number;
  replies: number;
}

const repliesOf = (threads: ReadonlyArray<{ children: readonly unknown[] }>) =>
  threads.reduce((n, thread) => n + thread.children.length, 0);

/** The package's crawl with the integration's defaults (concurrency 6, per_page 100), every thread kept, as a build keeps them. */
export async function crawlOurs(credentials: Credentials, log: (message: string) => void): Promise<CrawlRun> {
  // Progress stays quiet; retries would mean the mock misbehaved, so they show.
  const logger: CrawlLogger = { info: () => {}, debug: () => {}, warn: (message) => log(`  crawl: ${message}`) };
  const { result, summary } = await crawlComments(credentials, crawlDefaults, logger, collectThreads, {
    transport: undiciTransport,
  });
  return {
    seconds: summary.seconds,
    requests: summary.requests,
    bytes: summary.bytes,
    threads: result.length,
    replies: repliesOf(result),
  };
}

/** One page after another at `perPage`, no validation or retries: what concurrency buys, at the same page size. */
export async function crawlSequential(credentials: Credentials, perPage: number): Promise<CrawlRun> {
  const started = performance.now();
  const run: CrawlRun = { seconds: 0, requests: 0, bytes: 0, threads: 0, replies: 0 };
  let lastPage = 1;
  for (let page = 1; page <= lastPage; page++) {
    const url = new URL(credentials.endpoint);
    url.search = new URLSearchParams({
      domain: credentials.domain,
      per_page: String(perPage),
      page: String(page),
    }).toString();
    const response = await request(url, {
      headers: { authorization: `Bearer ${credentials.apiToken}`, accept: "application/json" },
    });
    const text = await response.body.text();
    if (response.statusCode !== 200)
      throw new Error(`sequential crawl: page ${page} answered ${response.statusCode}: ${text.slice(0, 200)}`);
    const body = JSON.parse(text) as { data: Array<{ children: unknown[] }>; meta: { last_page: number } };
    run.requests++;
    run.bytes += Buffer.byteLength(text);
    run.threads += body.data.length;
    run.replies += repliesOf(body.data);
    lastPage = body.meta.last_page;
  }
  run.seconds = (performance.now() - started) / 1000;
  return run;
}

/** The fastest the crawl itself can be: page 1 alone (it says how many pages there are), then the rest `concurrency` at a time, each wave taking the added latency. Seconds. */
export const crawlIdealSeconds = (requests: number, concurrency: number, latencyMs: number) =>
  (latencyMs * (1 + Math.ceil((requests - 1) / concurrency))) / 1000;

/**
 * Issue 17's network floor F, seconds: the fewest requests the service allows (⌈top-level
 * comments ÷ its largest page⌉, as the issue counts them: page 1's own round trip is left out)
 * × the added latency ÷ the connections of the default concurrency.
 */
export function networkFloor(
  topLevel: number,
  maxPerPage: number,
  latencyMs: number,
): { seconds: number; requests: number; connections: number } {
  const requests = Math.ceil(topLevel / maxPerPage);
  const connections = crawlDefaults.concurrency;
  return { seconds: (requests * latencyMs) / connections / 1000, requests, connections };
}

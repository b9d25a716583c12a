// The build's and dev server's fetch of a domain's comments: the shared crawl (api/crawl-comments.ts)
// with every thread kept and the state folded in as each page arrives (the pages' digests, and
// what the site publishes if it does);
// logging through Astro's logger. What becomes of the threads (entries, digests, rendering) is the
// loader's business.
import { fileURLToPath } from "node:url";
import type { AstroIntegrationLogger } from "astro";
import type { CommentThread } from "../api/generated/api-types.ts";
import { collectThreads, type PageCollector } from "../api/crawl.ts";
import { crawlComments, type CrawlHooks, type CrawlSettings, type CrawlSummary } from "../api/crawl-comments.ts";
import { checkCrawlFile, readCheckCrawl, removeCheckCrawl, type CrawlThreads } from "../freshness/check-crawl.ts";
import { undiciTransport } from "../api/undici-transport.ts";
import { FreshnessStateCollector, type CompleteFreshnessState } from "../freshness/freshness-state.ts";
import type { Credentials, ResolvedOptions } from "../integration/options.ts";
import { whileWaited } from "../api/patience.ts";

export interface FetchedComments {
  /** Every thread as served; from a check's crawl, read a site page at a time, as they are needed. */
  threads: CommentThread[] | CrawlThreads;
  summary: CrawlSummary;
  /** The state of these comments: each page's digest, and what the build publishes (feeds.state). */
  crawlState: CompleteFreshnessState;
  /** Set when these are the crawl `astro-comments check` left: when it started, and how long ago. */
  reused?: { crawledAt: string; ageMs: number };
}

type FetchOptions = Pick<ResolvedOptions, keyof CrawlSettings>;

/**
 * Where a check run in the site's folder leaves its crawl: Astro's cacheDir, and Astro's default
 * too when the site sets another (a cacheDir the check could not read from astro.config).
 */
export function checkCrawlFiles(config: { root: URL; cacheDir: URL }): string[] {
  const files = [fileURLToPath(config.cacheDir), fileURLToPath(new URL("node_modules/.astro/", config.root))].map(
    checkCrawlFile,
  );
  return [...new Set(files)];
}

/** Test seam: deterministic backoff without real waiting. */
export type ClientOverrides = Pick<CrawlHooks, "random" | "sleep" | "now">;

/**
 * The fetch for a site, started as early as possible: the integration starts it while Astro is
 * still setting up (config, Vite, the content config), so network time hides behind that work,
 * and the loader takes it over. A dev server must start promptly even when the API is down (a poll
 * or refresh tries again), so dev retries once and gives up sooner.
 */
export function startFetch(
  site: { options: ResolvedOptions; command: string },
  credentials: Credentials,
  logger: AstroIntegrationLogger,
  overrides: ClientOverrides = {},
  checkCrawls: readonly string[] = [],
): Promise<FetchedComments> {
  const options = site.command === "dev" ? whileWaited(site.options) : site.options;
  const reuse = site.command === "build" && site.options.reuseCheckMinutes > 0 && checkCrawls.length > 0;
  const fetching = (async () =>
    (reuse && (await reuseCheckCrawl(checkCrawls, credentials, site.options.reuseCheckMinutes, logger))) ||
    fetchAllComments(credentials, options, logger, overrides))();
  // Handled here so a failure that lands before the loader awaits it is not an unhandled
  // rejection; the loader still gets the error when it awaits.
  fetching.catch(() => undefined);
  return fetching;
}

/** "42 s" or "7 min": how old a reused crawl is, in its log lines. */
export const ago = (ms: number): string =>
  ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;

/**
 * The crawl a check left, when one of `files` holds a whole one of these credentials younger than
 * `minutes`; undefined (and one info line when there was a file) otherwise. A file serves one
 * build: it is removed once read, whatever it held.
 */
async function reuseCheckCrawl(
  files: readonly string[],
  credentials: Credentials,
  minutes: number,
  logger: AstroIntegrationLogger,
): Promise<FetchedComments | undefined> {
  for (const file of files) {
    const started = performance.now();
    const found = await readCheckCrawl(file, credentials, minutes * 60_000);
    if (found.kind === "none") continue;
    await removeCheckCrawl(file).catch(() => undefined);
    if (found.kind === "ignored") {
      logger.info(`not using the crawl astro-comments check left in ${file}: ${found.why}; fetching instead`);
      return undefined;
    }
    logger.info(`using the crawl astro-comments check made ${ago(found.ageMs)} ago of ${credentials.domain}`);
    return {
      threads: found.threads,
      crawlState: found.state,
      reused: { crawledAt: found.crawledAt, ageMs: found.ageMs },
      summary: {
        ...found.figures,
        retries: 0,
        rateLimitPauses: 0,
        rateLimitSeconds: 0,
        crawls: 1,
        seconds: (performance.now() - started) / 1000,
      },
    };
  }
  return undefined;
}

async function fetchAllComments(
  credentials: Credentials,
  options: FetchOptions,
  logger: AstroIntegrationLogger,
  overrides: ClientOverrides = {},
): Promise<FetchedComments> {
  logger.info(`fetching comments of ${credentials.domain} from ${credentials.endpoint.href}`);
  const crawledAt = new Date().toISOString();
  // The state is hashed page by page while the crawl waits on the network, not in a pass after it.
  const collect = (): PageCollector<Omit<FetchedComments, "summary">> => {
    const threads = collectThreads();
    const state = new FreshnessStateCollector({ domain: credentials.domain, crawledAt });
    return {
      add: (page, data) => {
        threads.add(page, data);
        state.add(page, data);
      },
      finish: () => ({ threads: threads.finish(), crawlState: state.finish() }),
    };
  };
  // Node only: undici's pool, kept-alive connections for the hundreds of requests of a large site.
  const { result, summary } = await crawlComments(credentials, options, logger, collect, {
    transport: undiciTransport,
    ...overrides,
  });
  return { ...result, summary };
}

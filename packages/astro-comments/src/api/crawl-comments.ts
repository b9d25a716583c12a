// One crawl of a domain's comments, as every part of the package does it: the build and dev
// loader, the live loader and the bins. It picks the page size (100, or what a validating service
// accepts), shares the rate-limit gate with other crawls of the same service and token, and tells
// the logger about progress, pauses and fallbacks. No Astro import: the logger is anything with
// info, warn and debug.
import { crawlAllPages, type PageCollector } from "./crawl.ts";
import type { Credentials } from "./credentials.ts";
import { createCommentsClient, type CommentsClientOptions } from "./http-client.ts";
import {
  DEFAULT_RATE_LIMIT_WAIT_MS,
  describeLimit,
  RateLimitGate,
  sharedGate,
  type GateClock,
  type Pause,
  type WaitBudget,
} from "./rate-limit-gate.ts";
import { PerPageRefused } from "./refusals.ts";
import { plural } from "../utils/counting.ts";

export interface CrawlLogger {
  info(message: string): void;
  warn(message: string): void;
  debug(message: string): void;
}

export interface CrawlSettings {
  /** Top-level comments asked for per request. Undefined: 100, or what a service that refuses 100 names (else 50). */
  perPage?: number | undefined;
  /** Requests in flight at once after the first page. */
  concurrency: number;
  /** What one attempt may take, in ms. */
  timeout: number;
  /** Retries of one request after network errors, timeouts and 5xx. */
  retries: number;
  /** What one request may spend on attempts and backoff, in ms (rate-limit pauses not included). */
  giveUpAfter: number;
  /** What the whole crawl may spend waiting on the service's rate limit, in ms. */
  rateLimitWait: number;
  /** Larger responses fail instead of exhausting memory. */
  maxResponseBytes: number;
}

/** The settings a crawl uses when nobody says otherwise (the integration's option defaults). */
export const crawlDefaults = {
  concurrency: 6,
  timeout: 10_000,
  retries: 5,
  giveUpAfter: 50_000,
  rateLimitWait: DEFAULT_RATE_LIMIT_WAIT_MS,
  maxResponseBytes: 50 * 1024 * 1024,
} as const satisfies Omit<CrawlSettings, "perPage">;

/** Asked for first: the most a validating Laravel service accepts (max:100), half the requests of its default 50. */
export const PREFERRED_PER_PAGE = 100;
/** The service's own default, accepted by every version. */
const FALLBACK_PER_PAGE = 50;

export interface CrawlSummary {
  requests: number;
  retries: number;
  /** Pauses for the service's rate limit, and the time they took. */
  rateLimitPauses: number;
  rateLimitSeconds: number;
  /** Response bytes received. */
  bytes: number;
  crawls: number;
  pages: number;
  perPage: number;
  seconds: number;
}

export interface CrawlHooks
  extends Pick<CommentsClientOptions, "onBody" | "audience" | "random" | "sleep" | "now" | "transport"> {
  /** The rate-limit gate; default: the one shared by every crawl of this service and token in the process. */
  gate?: RateLimitGate;
}

/** Crawls every page of `credentials.domain`'s approved comments into what `collect` makes of them. */
export async function crawlComments<T>(
  credentials: Credentials,
  settings: CrawlSettings,
  logger: CrawlLogger,
  collect: () => PageCollector<T>,
  hooks: CrawlHooks = {},
): Promise<{ result: T; summary: CrawlSummary }> {
  const started = performance.now();
  const endpoint = credentials.endpoint.href;
  const progress = { pagesDone: 0, pages: 0 };
  let perPage = settings.perPage ?? PREFERRED_PER_PAGE;
  let rateLimitPauses = 0;
  const pagesSoFar = () =>
    progress.pages > 0
      ? `${progress.pagesDone} of ${plural(progress.pages, "page")}`
      : plural(progress.pagesDone, "page");
  const budget: WaitBudget = {
    limitMs: settings.rateLimitWait,
    waitedMs: 0,
    onPause: (pause: Pause) => {
      rateLimitPauses++;
      const limit = describeLimit(pause.limit, pause.periodMs);
      logger.info(
        `the comments service's rate limit${limit ? ` (${limit})` : ""} was reached after ${pagesSoFar()}; waiting ${Math.ceil(pause.waitMs / 1000)} s`,
      );
    },
  };
  const clock: GateClock = {
    now: hooks.now ?? (() => performance.now()),
    sleep: hooks.sleep ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
    random: hooks.random ?? Math.random,
  };
  // A test's clock is its own: sharing a gate with it would mix clocks.
  const injected = hooks.now !== undefined || hooks.sleep !== undefined;
  const gate = hooks.gate ?? (injected ? new RateLimitGate(clock) : sharedGate(await gateKey(credentials), clock));
  const client = createCommentsClient({
    endpoint: credentials.endpoint,
    token: credentials.apiToken,
    domain: credentials.domain,
    timeoutMs: settings.timeout,
    connections: settings.concurrency,
    maxResponseBytes: settings.maxResponseBytes,
    retryPolicy: { retries: settings.retries, giveUpAfterMs: settings.giveUpAfter },
    gate,
    rateLimitBudget: budget,
    describeNeed: () =>
      progress.pages > 0
        ? `this site needs ${plural(progress.pages, "page")} of ${perPage} comments, ${progress.pagesDone} fetched so far`
        : "not even the first page was fetched",
    onRetry: ({ url, reason, waitMs }) => logger.warn(`retrying ${url} in ${(waitMs / 1000).toFixed(1)} s (${reason})`),
    ...hooks,
  });
  let lastLoggedQuarter = 0;
  try {
    for (let fallbacks = 0; ; fallbacks++) {
      try {
        const crawl = await crawlAllPages({
          fetchPage: client.fetchPage,
          endpoint,
          perPage,
          concurrency: settings.concurrency,
          collect,
          onProgress: ({ pagesDone, pages }) => {
            progress.pagesDone = pagesDone;
            progress.pages = pages;
            const quarter = Math.floor((pagesDone / pages) * 4);
            if (pages >= 8 && quarter > lastLoggedQuarter && quarter < 4) {
              lastLoggedQuarter = quarter;
              logger.info(`fetched ${pagesDone} of ${pages} pages`);
            } else logger.debug(`fetched page ${pagesDone} of ${pages}`);
          },
          onRestart: (reason) => {
            lastLoggedQuarter = 0;
            logger.warn(`comments changed during the crawl (${reason}); crawling again`);
          },
        });
        return {
          result: crawl.result,
          summary: {
            requests: client.requests,
            retries: client.retries,
            rateLimitPauses,
            rateLimitSeconds: budget.waitedMs / 1000,
            bytes: client.bytes,
            crawls: crawl.crawls,
            pages: crawl.pages,
            perPage: crawl.perPage,
            seconds: (performance.now() - started) / 1000,
          },
        };
      } catch (error) {
        // A validating service refuses a page size above its maximum (422) rather than capping it.
        const next =
          error instanceof PerPageRefused && settings.perPage === undefined && fallbacks < 2
            ? Math.min(error.limit ?? FALLBACK_PER_PAGE, FALLBACK_PER_PAGE, perPage - 1)
            : undefined;
        if (next === undefined || next < 1) throw error;
        logger.info(
          `the comments service does not serve ${perPage} comments a page; asking for ${next} (set the perPage option to skip this request)`,
        );
        perPage = next;
      }
    }
  } finally {
    await client.close();
  }
}

/**
 * One gate per service and token; the token only as a digest, so no copy of it sits in a map key.
 * Web Crypto, not node:crypto: the live loader and the island run this where there is no node:*.
 */
async function gateKey(credentials: Credentials): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(credentials.apiToken));
  const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${credentials.endpoint.origin} ${hex}`;
}

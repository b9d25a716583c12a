// One fetch of a domain's comments: the crawl over HTTP with progress in the log. Returns the raw
// threads; what becomes of them (entries, digests, rendering) is the loader's business.
import type { CommentThread } from "./api/generated/api-types.ts";
import type { AstroIntegrationLogger } from "astro";
import { crawlAllPages } from "./api/crawl.ts";
import { createCommentsClient, type CommentsClient, type CommentsClientOptions } from "./api/http-client.ts";
import type { Credentials, ResolvedOptions } from "./options.ts";
import type { SiteState } from "./site-registry.ts";

export interface FetchSummary {
  requests: number;
  retries: number;
  /** Response bytes received. */
  bytes: number;
  crawls: number;
  seconds: number;
}

export interface FetchedComments {
  threads: CommentThread[];
  summary: FetchSummary;
}

export type FetchOptions = Pick<ResolvedOptions, "perPage" | "concurrency" | "timeout" | "retries" | "giveUpAfter" | "maxResponseBytes">;

/** Test seam: deterministic backoff without real waiting. */
export type ClientOverrides = Pick<CommentsClientOptions, "random" | "sleep" | "now">;

/**
 * The retry budget when someone is waiting (a dev server starting, a reader of an on-demand page):
 * one retry within 15 s, not the build's minute. A poll, refresh or the next request tries again.
 */
export function whileWaited<T extends Pick<FetchOptions, "retries" | "giveUpAfter">>(options: T): T {
  return { ...options, retries: Math.min(options.retries, 1), giveUpAfter: Math.min(options.giveUpAfter, 15_000) };
}

/** The HTTP client for these credentials (their endpoint) with the options' limits. */
export function clientFor(credentials: Credentials, options: FetchOptions, extra: Partial<CommentsClientOptions> = {}): CommentsClient {
  return createCommentsClient({
    endpoint: credentials.endpoint,
    token: credentials.apiToken,
    domain: credentials.domain,
    timeoutMs: options.timeout,
    connections: options.concurrency,
    maxResponseBytes: options.maxResponseBytes,
    retryPolicy: { retries: options.retries, giveUpAfterMs: options.giveUpAfter },
    ...extra,
  });
}

/**
 * The fetch for a site, started as early as possible: the integration starts it while Astro is
 * still setting up (config, Vite, the content config), so network time hides behind that work,
 * and the loader takes it over. A dev server must start promptly even when the API is down (a poll
 * or refresh tries again), so dev retries once and gives up sooner.
 */
export function startFetch(site: Pick<SiteState, "options" | "command">, credentials: Credentials, logger: AstroIntegrationLogger, overrides: ClientOverrides = {}): Promise<FetchedComments> {
  const options = site.command === "dev" ? whileWaited(site.options) : site.options;
  const fetching = fetchAllComments(credentials, options, logger, overrides);
  // Handled here so a failure that lands before the loader awaits it is not an unhandled
  // rejection; the loader still gets the error when it awaits.
  fetching.catch(() => undefined);
  return fetching;
}

export async function fetchAllComments(credentials: Credentials, options: FetchOptions, logger: AstroIntegrationLogger, overrides: ClientOverrides = {}): Promise<FetchedComments> {
  const started = performance.now();
  const endpoint = credentials.endpoint.toString();
  logger.info(`fetching comments of ${credentials.domain} from ${endpoint}`);
  const client = clientFor(credentials, options, {
    onRetry: ({ url, reason, waitMs }) => logger.warn(`retrying ${url} in ${(waitMs / 1000).toFixed(1)} s (${reason})`),
    ...overrides,
  });
  let lastLoggedQuarter = 0;
  try {
    const crawl = await crawlAllPages({
      fetchPage: client.fetchPage,
      endpoint,
      perPage: options.perPage,
      concurrency: options.concurrency,
      onProgress: ({ pagesDone, pages }) => {
        const quarter = Math.floor((pagesDone / pages) * 4);
        if (pages >= 8 && quarter > lastLoggedQuarter && quarter < 4) {
          lastLoggedQuarter = quarter;
          logger.info(`fetched ${pagesDone} of ${pages} pages`);
        } else logger.debug(`fetched page ${pagesDone} of ${pages}`);
      },
      onRestart: (reason) => logger.warn(`comments changed during the crawl (${reason}); crawling again`),
    });
    return {
      threads: crawl.threads,
      summary: { requests: client.requests, retries: client.retries, bytes: client.bytes, crawls: crawl.crawls, seconds: (performance.now() - started) / 1000 },
    };
  } finally {
    await client.close();
  }
}

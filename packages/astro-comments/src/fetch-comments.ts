// One fetch of a domain's comments: the crawl over HTTP with progress in the log. Returns the raw
// threads; what becomes of them (entries, digests, rendering) is the loader's business.
import type { CommentThread } from "@astro-comments/schema";
import type { AstroIntegrationLogger } from "astro";
import { crawlAllPages } from "./api/crawl.ts";
import { createCommentsClient, type CommentsClientOptions } from "./api/http-client.ts";
import type { Credentials, ResolvedOptions } from "./options.ts";

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

export async function fetchAllComments(credentials: Credentials, options: FetchOptions, logger: AstroIntegrationLogger, overrides: ClientOverrides = {}): Promise<FetchedComments> {
  const started = performance.now();
  const endpoint = credentials.endpoint.toString();
  logger.info(`fetching comments of ${credentials.domain} from ${endpoint}`);
  const client = createCommentsClient({
    endpoint: credentials.endpoint,
    token: credentials.apiToken,
    domain: credentials.domain,
    timeoutMs: options.timeout,
    connections: options.concurrency,
    maxResponseBytes: options.maxResponseBytes,
    retryPolicy: { retries: options.retries, giveUpAfterMs: options.giveUpAfter },
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

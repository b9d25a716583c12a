// The build's and dev server's fetch of a domain's comments: the shared crawl (api/crawl-comments.ts)
// with every thread kept, logging through Astro's logger. What becomes of the threads (entries,
// digests, rendering) is the loader's business.
import type { AstroIntegrationLogger } from "astro";
import type { CommentThread } from "./api/generated/api-types.ts";
import { collectThreads } from "./api/crawl.ts";
import { crawlComments, type CrawlHooks, type CrawlSettings, type CrawlSummary } from "./api/crawl-comments.ts";
import type { Credentials, ResolvedOptions } from "./options.ts";
import type { SiteState } from "./site-registry.ts";

export interface FetchedComments {
  threads: CommentThread[];
  summary: CrawlSummary;
}

export type FetchOptions = Pick<ResolvedOptions, keyof CrawlSettings>;

/** Test seam: deterministic backoff without real waiting. */
export type ClientOverrides = Pick<CrawlHooks, "random" | "sleep" | "now">;

/**
 * The patience when someone is waiting (a dev server starting, a reader of an on-demand page):
 * one retry within 15 s, and no rate-limit pause longer than that, not the build's minutes. A
 * poll, refresh or the next request tries again.
 */
export function whileWaited<T extends Pick<FetchOptions, "retries" | "giveUpAfter" | "rateLimitWait">>(options: T): T {
  return { ...options, retries: Math.min(options.retries, 1), giveUpAfter: Math.min(options.giveUpAfter, 15_000), rateLimitWait: Math.min(options.rateLimitWait, 15_000) };
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
  logger.info(`fetching comments of ${credentials.domain} from ${credentials.endpoint.href}`);
  const { result, summary } = await crawlComments(credentials, options, logger, collectThreads, overrides);
  return { threads: result, summary };
}

// The build's and dev server's fetch of a domain's comments: the shared crawl (api/crawl-comments.ts)
// with every thread kept and, when the site publishes it, the state folded in as each page arrives;
// logging through Astro's logger. What becomes of the threads (entries, digests, rendering) is the
// loader's business.
import type { AstroIntegrationLogger } from "astro";
import type { CommentThread } from "../api/generated/api-types.ts";
import { collectThreads, type PageCollector } from "../api/crawl.ts";
import { crawlComments, type CrawlHooks, type CrawlSettings, type CrawlSummary } from "../api/crawl-comments.ts";
import { undiciTransport } from "../api/undici-transport.ts";
import { FreshnessStateCollector, type CompleteFreshnessState } from "../freshness/freshness-state.ts";
import type { Credentials, ResolvedOptions } from "../integration/options.ts";
import { whileWaited } from "./live-page.ts";

export interface FetchedComments {
  threads: CommentThread[];
  summary: CrawlSummary;
  /** What the build publishes (feeds.state); undefined when the site does not. */
  crawlState: CompleteFreshnessState | undefined;
}

type FetchOptions = Pick<ResolvedOptions, keyof CrawlSettings>;

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
): Promise<FetchedComments> {
  const options = site.command === "dev" ? whileWaited(site.options) : site.options;
  const fetching = fetchAllComments(credentials, options, logger, overrides, site.options.feeds.state !== undefined);
  // Handled here so a failure that lands before the loader awaits it is not an unhandled
  // rejection; the loader still gets the error when it awaits.
  fetching.catch(() => undefined);
  return fetching;
}

async function fetchAllComments(
  credentials: Credentials,
  options: FetchOptions,
  logger: AstroIntegrationLogger,
  overrides: ClientOverrides = {},
  withState = false,
): Promise<FetchedComments> {
  logger.info(`fetching comments of ${credentials.domain} from ${credentials.endpoint.href}`);
  const crawledAt = new Date().toISOString();
  // The state is hashed page by page while the crawl waits on the network, not in a pass after it.
  const collect = (): PageCollector<Omit<FetchedComments, "summary">> => {
    const threads = collectThreads();
    const state = withState ? new FreshnessStateCollector({ domain: credentials.domain, crawledAt }) : undefined;
    return {
      add: (page, data) => {
        threads.add(page, data);
        state?.add(page, data);
      },
      finish: () => ({ threads: threads.finish(), crawlState: state?.finish() }),
    };
  };
  // Node only: undici's pool, kept-alive connections for the hundreds of requests of a large site.
  const { result, summary } = await crawlComments(credentials, options, logger, collect, {
    transport: undiciTransport,
    ...overrides,
  });
  return { ...result, summary };
}

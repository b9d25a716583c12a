// One build's fetch: crawl the domain, render the comments, write the store, log a summary.
import type { AstroIntegrationLogger } from "astro";
import { crawlAllPages } from "./api/crawl.ts";
import { createCommentsClient, type CommentsClientOptions } from "./api/http-client.ts";
import { dirname, join } from "node:path";
import { saveStore, writeJsonFile } from "./comments-store.ts";
import { createRenderCache, loadRenderCache, RENDER_VERSION } from "./render/render-cache.ts";
import { CommentsApiError } from "./errors.ts";
import type { ResolvedOptions } from "./options.ts";
import { groupByPage, renderThread } from "./render/comment-tree.ts";

export interface FetchSummary {
  comments: number;
  paths: number;
  requests: number;
  retries: number;
  /** Response bytes received. */
  bytes: number;
  seconds: number;
}

const count = (n: number) => n.toLocaleString("en-US");

/** Test seam: deterministic backoff without real waiting. */
export type ClientOverrides = Pick<CommentsClientOptions, "random" | "sleep">;

export async function fetchComments(options: ResolvedOptions, storeFile: string, logger: AstroIntegrationLogger, overrides: ClientOverrides = {}): Promise<FetchSummary> {
  const started = performance.now();
  const endpoint = options.endpoint.toString();
  logger.info(`fetching comments of ${options.domain} from ${endpoint}`);
  const client = createCommentsClient({
    endpoint: options.endpoint,
    token: options.apiToken,
    domain: options.domain,
    timeoutMs: options.timeout,
    connections: options.concurrency,
    maxResponseBytes: options.maxResponseBytes,
    retryPolicy: { retries: options.retries },
    onRetry: ({ url, reason, waitMs }) => logger.warn(`retrying ${url} in ${(waitMs / 1000).toFixed(1)} s (${reason})`),
    ...overrides,
  });
  let lastLoggedQuarter = 0;
  try {
    const unknownLanguages = new Set<string>();
    const cacheFile = join(dirname(storeFile), "render-cache.json");
    const cache = createRenderCache(await loadRenderCache(cacheFile));
    const crawl = await crawlAllPages({
      fetchPage: client.fetchPage,
      mapPage: (threads) => threads.map((thread) => renderThread(thread, unknownLanguages, cache.render)),
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
    const tree = groupByPage(crawl.threads, options.order);
    await saveStore(storeFile, options.domain, Object.fromEntries(tree.pages));
    await writeJsonFile(cacheFile, { version: RENDER_VERSION, entries: cache.entries() });
    if (unknownLanguages.size > 0) {
      logger.info(`code in languages PrismJS does not know is shown unhighlighted: ${[...unknownLanguages].sort().join(", ")}`);
    }
    const summary: FetchSummary = {
      comments: tree.topLevel + tree.replies,
      paths: tree.pages.size,
      requests: client.requests,
      retries: client.retries,
      bytes: client.bytes,
      seconds: (performance.now() - started) / 1000,
    };
    logger.info(
      `fetched ${count(summary.comments)} comments (${count(tree.topLevel)} threads) on ${count(summary.paths)} paths in ${summary.seconds.toFixed(1)} s` +
        ` (${count(summary.requests)} requests, ${(summary.bytes / 1_048_576).toFixed(1)} MiB${summary.retries ? `, ${count(summary.retries)} retries` : ""}${crawl.crawls > 1 ? `, ${crawl.crawls} crawls` : ""}${cache.hits ? `, ${count(cache.hits)} bodies from the render cache` : ""})`,
    );
    return summary;
  } catch (error) {
    if (options.onError === "warn" && error instanceof CommentsApiError) {
      logger.warn(`${error.message}. ${error.hint ?? ""} Rendering no comments (onError: "warn").`);
      await saveStore(storeFile, options.domain, {});
      return { comments: 0, paths: 0, requests: client.requests, retries: client.retries, bytes: client.bytes, seconds: (performance.now() - started) / 1000 };
    }
    throw error;
  } finally {
    await client.close();
  }
}

// Crawls every page of a domain's comments: page 1 says how many pages there are, the rest are
// fetched with bounded concurrency. Links are never followed (the service's links drop `domain`),
// and meta wins over what was asked (a server may cap per_page). If the list changes during the
// crawl, the crawl starts again rather than ship duplicates or gaps. Change is seen in meta and in
// page sizes, never in comments' content: identical twin comments are real (a reader who submits
// twice in one second) and must both be kept.
// Each page is handed to a collector as it arrives and then dropped, so what a crawl keeps is up
// to its collector: every thread for a build, only digests for the freshness check.
import type { CommentThread } from "./generated/api-types.ts";
import { InconsistentMeta, listChanges, ListKeptChanging, WrongPage } from "../errors-data.ts";
import { apiError } from "./api-error.ts";
import { boundedMap } from "../utils/bounded-map.ts";
import type { FetchedPage } from "./http-client.ts";

/** Folds the pages of one crawl into its result. */
export interface PageCollector<T> {
  /** One page of top-level comments (replies nested in `children`), as served. Pages may arrive out of order. */
  add(page: number, threads: CommentThread[]): void;
  /** Called once, after every page was added; its result is the crawl's. */
  finish(): T;
}

/** Every top-level comment, in served order. */
export function collectThreads(): PageCollector<CommentThread[]> {
  const pages: CommentThread[][] = [];
  return {
    add: (page, threads) => void (pages[page - 1] = threads),
    finish: () => pages.flat(),
  };
}

export interface CrawlOptions<T> {
  fetchPage: (page: number, perPage: number) => Promise<FetchedPage>;
  /** The endpoint, for error messages. */
  endpoint: string;
  perPage: number;
  concurrency: number;
  /** Full crawls allowed when the list keeps changing. Default 3. */
  maxCrawls?: number;
  /** A new collector for each crawl (a crawl that starts over starts with an empty one). */
  collect: () => PageCollector<T>;
  onProgress?: (progress: { pagesDone: number; pages: number }) => void;
  onRestart?: (reason: string) => void;
}

export interface CrawlResult<T> {
  /** What the collector made of the pages. */
  result: T;
  /** meta.total: approved top-level comments. */
  total: number;
  pages: number;
  /** per_page the server actually used. */
  perPage: number;
  crawls: number;
}

class ListChanged extends Error {}

async function crawlOnce<T>(options: CrawlOptions<T>): Promise<CrawlResult<T> & { crawls: 0 }> {
  const first = await options.fetchPage(1, options.perPage);
  const { total, per_page: perPage, last_page: lastPage } = first.body.meta;
  if (lastPage !== Math.max(1, Math.ceil(total / perPage))) {
    throw apiError(InconsistentMeta, { url: first.url }, { total, perPage, lastPage });
  }
  const expectedCount = (page: number) => Math.max(0, Math.min(perPage, total - (page - 1) * perPage));
  const check = (fetched: FetchedPage, page: number) => {
    const { meta, data } = fetched.body;
    if (meta.current_page !== page) {
      throw apiError(WrongPage, { url: fetched.url }, { asked: page, got: meta.current_page });
    }
    if (meta.total !== total) throw new ListChanged(listChanges.total(total, meta.total));
    if (meta.per_page !== perPage || meta.last_page !== lastPage)
      throw new ListChanged(listChanges.paging(perPage, meta.per_page, lastPage, meta.last_page));
    if (data.length !== expectedCount(page))
      throw new ListChanged(listChanges.pageSize(page, data.length, expectedCount(page)));
    return data;
  };

  const collector = options.collect();
  collector.add(1, check(first, 1));
  let pagesDone = 1;
  options.onProgress?.({ pagesDone, pages: lastPage });
  const rest = Array.from({ length: lastPage - 1 }, (_, i) => i + 2);
  await boundedMap(rest, options.concurrency, async (page) => {
    collector.add(page, check(await options.fetchPage(page, perPage), page));
    options.onProgress?.({ pagesDone: ++pagesDone, pages: lastPage });
  });
  return { result: collector.finish(), total, pages: lastPage, perPage, crawls: 0 };
}

export async function crawlAllPages<T>(options: CrawlOptions<T>): Promise<CrawlResult<T>> {
  const maxCrawls = options.maxCrawls ?? 3;
  for (let crawl = 1; ; crawl++) {
    try {
      return { ...(await crawlOnce(options)), crawls: crawl };
    } catch (error) {
      if (!(error instanceof ListChanged)) throw error;
      if (crawl >= maxCrawls) {
        throw apiError(ListKeptChanging, { url: options.endpoint }, { crawls: crawl, change: error.message });
      }
      options.onRestart?.(error.message);
    }
  }
}

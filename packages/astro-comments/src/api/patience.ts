// How long a fetch keeps trying when someone waits for it, shared by the build's fetch in `astro
// dev` and the live page, so that neither imports the other.
import type { crawlComments } from "./crawl-comments.ts";

type CrawlOptions = Parameters<typeof crawlComments>[1];

/**
 * The patience when someone is waiting (a dev server starting, a reader of an on-demand page):
 * one retry within 15 s, and no rate-limit pause longer than that, not the build's minutes. A
 * poll, refresh or the next request tries again.
 */
export function whileWaited<T extends Pick<CrawlOptions, "retries" | "giveUpAfter" | "rateLimitWait">>(options: T): T {
  return {
    ...options,
    retries: Math.min(options.retries, 1),
    giveUpAfter: Math.min(options.giveUpAfter, 15_000),
    rateLimitWait: Math.min(options.rateLimitWait, 15_000),
  };
}

// The server island's side of <CommentsIsland>: a page's comments as the API has them now, in the
// order the site shows them, and the headers of the island's answer. The island is fetched by a
// script on a prerendered page that already shows the build's comments, so a failure here must
// answer in a way that leaves them in place (Astro's island script swaps only a 200 text/html).
import config from "virtual:astro-comments/config";
import { CommentsConfigError } from "../errors.ts";
import { whileWaited } from "../fetch-comments.ts";
import { commentsCacheTag } from "../live-loader.ts";
import { fetchPageThreads, liveSettings } from "../live-page.ts";
import { renderPageComments, sortPageThreads } from "../render/comment-tree.ts";
import type { RenderedComment } from "../render/comment-tree.ts";
import { pathKey } from "../render/path-key.ts";

/**
 * How long shared caches (a CDN) may keep the island's answer, in seconds: `maxAge` becomes
 * `s-maxage`, `staleWhileRevalidate` the time after that during which a cache may still answer
 * with its copy while it fetches a new one.
 * @example { maxAge: 300, staleWhileRevalidate: 3600 }
 */
export interface IslandCache {
  /** Seconds a shared cache serves its copy without asking the server (default 60; 0: ask every time). */
  maxAge?: number;
  /** Seconds after `maxAge` a shared cache may serve its copy while it fetches a new one (default 600). */
  staleWhileRevalidate?: number;
}

const CACHE_DEFAULTS = { maxAge: 60, staleWhileRevalidate: 600 } as const satisfies Required<IslandCache>;

// Under the 10 s that serverless hosts (Netlify's default) give a function, so the island answers
// itself rather than being cut off; the reader sees the build's comments meanwhile anyway.
const ISLAND_BUDGET_MS = 8_000;

/** The island's `Cache-Control` for these settings; throws, naming the bad value, at build time. */
export function islandCacheControl(cache: IslandCache = {}): string {
  const settings = { ...CACHE_DEFAULTS, ...cache };
  const bad = Object.entries(settings).filter(([, seconds]) => !Number.isInteger(seconds) || seconds < 0);
  if (bad.length > 0) {
    const names = bad.map(([name, seconds]) => `${name} (${String(seconds)})`).join(", ");
    throw new CommentsConfigError(`astro-comments: <CommentsIsland cache={…}> needs whole numbers of seconds, 0 or more: ${names}.`, "For example cache={{ maxAge: 60, staleWhileRevalidate: 600 }}.");
  }
  return `public, s-maxage=${settings.maxAge}, stale-while-revalidate=${settings.staleWhileRevalidate}`;
}

/** What the island answers: the page's comments with cache headers, or no comments and a status that keeps the fallback. */
export type IslandAnswer =
  | { status: 200; headers: Record<string, string>; count: number; comments: RenderedComment[] }
  | { status: 503; statusText: string; headers: Record<string, string> };

/** The comments of the page `path` as the API has them now, or a 503 when it cannot say in time. */
export async function islandAnswer(path: string, cacheControl: string): Promise<IslandAnswer> {
  const key = pathKey(path);
  try {
    const settings = liveSettings();
    const patience = whileWaited(settings);
    const options = { ...patience, timeout: Math.min(patience.timeout, ISLAND_BUDGET_MS), giveUpAfter: Math.min(patience.giveUpAfter, ISLAND_BUDGET_MS), rateLimitWait: Math.min(patience.rateLimitWait, ISLAND_BUDGET_MS) };
    const data = renderPageComments(key, sortPageThreads(await fetchPageThreads(key, settings, options)));
    const comments = config.order === "newest-first" ? [...data.comments].reverse() : data.comments;
    return { status: 200, headers: { "Cache-Control": cacheControl, "Cache-Tag": commentsCacheTag(key) }, count: data.count, comments };
  } catch {
    // Not cached anywhere, so the next reader asks again; the page keeps the build's comments.
    return { status: 503, statusText: "Service Unavailable", headers: { "Cache-Control": "no-store" } };
  }
}

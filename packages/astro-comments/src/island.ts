// The server island's side of <CommentsIsland>: a page's comments as the API has them now, in the
// order the site shows them, and the headers of the island's answer. The island is fetched by a
// script on a prerendered page that already shows the build's comments, so a failure here must
// answer in a way that leaves them in place (Astro's island script swaps only a 200 text/html).
import config from "virtual:astro-comments/config";
import { CommentsApiError, CommentsConfigError, configError } from "./errors.ts";
import { IslandCacheInvalid } from "./errors-data.ts";
import { commentsCacheTag } from "./live-loader.ts";
import { whileWaited } from "./api/patience.ts";
import { fetchPageThreads, liveSettings } from "./loader/live-page.ts";
import { dedupeAliasedThreads } from "./render/aliases.ts";
import { renderPageComments, sortPageThreads } from "./render/comment-tree.ts";
import type { RenderedComment } from "./render/comment-tree.ts";
import { pathKey } from "./render/path-key.ts";

/**
 * How long shared caches (a CDN) may keep the island's answer, in seconds: `maxAge` becomes
 * `s-maxage` in Cache-Control and `max-age` in CDN-Cache-Control, `staleWhileRevalidate` the time
 * after that during which a CDN may still answer with its copy while it fetches a new one.
 * @example { maxAge: 300, staleWhileRevalidate: 3600 }
 */
export interface IslandCache {
  /** Seconds a shared cache serves its copy without asking the server (default 60; 0: ask every time). */
  maxAge?: number;
  /** Seconds after `maxAge` a shared cache may serve its copy while it fetches a new one (default 600). */
  staleWhileRevalidate?: number;
}

const CACHE_DEFAULTS = { maxAge: 60, staleWhileRevalidate: 600 } as const satisfies Required<IslandCache>;

// Less than the live loader's 15 s: the reader already sees the build's comments, so waiting
// longer only bills the function for time nobody needs; an API silent for 8 s is taken as down.
const ISLAND_BUDGET_MS = 8_000;

/** The cache settings with defaults filled in; throws, naming each bad value, at build time. */
export function islandCache(cache: IslandCache = {}): Required<IslandCache> {
  const settings = { ...CACHE_DEFAULTS, ...cache };
  const bad = Object.entries(settings).filter(([, seconds]) => !Number.isInteger(seconds) || seconds < 0);
  if (bad.length > 0) {
    const names = bad.map(([name, seconds]) => `${name} (${String(seconds)})`).join(", ");
    throw configError(IslandCacheInvalid, names);
  }
  return settings;
}

// Cache-Control: every cache, browsers included, reads it; they ignore s-maxage, and finding no
// lifetime of their own they fetch anew on every view. stale-while-revalidate is left out of it on
// purpose: Chromium applies it too, and then shows a returning reader the island of their previous
// view (measured, see docs/server-island.md). CDN-Cache-Control (RFC 9213) carries it for CDNs:
// Netlify, Vercel and Cloudflare read it and keep it from browsers; Netlify caches a function's
// answer only with it (or its own Netlify-CDN-Cache-Control).
function cacheHeaders({ maxAge, staleWhileRevalidate }: Required<IslandCache>, key: string): Record<string, string> {
  return {
    "Cache-Control": `public, s-maxage=${maxAge}`,
    "CDN-Cache-Control": `public, max-age=${maxAge}, stale-while-revalidate=${staleWhileRevalidate}`,
    "Cache-Tag": commentsCacheTag(key),
  };
}

/** What the island answers: the page's comments with cache headers, or no comments and a status that keeps the fallback. */
export type IslandAnswer =
  | { status: 200; headers: Record<string, string>; count: number; comments: RenderedComment[] }
  | { status: 503; statusText: string; headers: Record<string, string> };

/**
 * The comments of the page `path` as the API has them now, or a 503 when it cannot say in time.
 * `aliases`: other paths whose comments the build showed on this page (the aliases option and
 * redirects), merged in as the build merges them.
 */
export async function islandAnswer(
  path: string,
  cache: Required<IslandCache>,
  aliases: readonly string[] = [],
): Promise<IslandAnswer> {
  const key = pathKey(path);
  try {
    const settings = await liveSettings();
    const patience = whileWaited(settings);
    const options = {
      ...patience,
      timeout: Math.min(patience.timeout, ISLAND_BUDGET_MS),
      giveUpAfter: Math.min(patience.giveUpAfter, ISLAND_BUDGET_MS),
      rateLimitWait: Math.min(patience.rateLimitWait, ISLAND_BUDGET_MS),
    };
    const threads = (
      await Promise.all([key, ...aliases].map((source) => fetchPageThreads(pathKey(source), settings, options)))
    ).flat();
    const data = await renderPageComments(
      key,
      sortPageThreads(aliases.length === 0 ? threads : dedupeAliasedThreads(threads, key)),
    );
    const comments = config.order === "newest-first" ? [...data.comments].reverse() : data.comments;
    return { status: 200, headers: cacheHeaders(cache, key), count: data.count, comments };
  } catch (error) {
    // Not cached anywhere, so the next reader asks again; the page keeps the build's comments.
    // There is no logger at request time: the kind of failure (never a URL or a message) tells an
    // operator with curl -I why, e.g. "unauthorized", "network", "timeout", "config".
    const failure =
      error instanceof CommentsApiError
        ? error.failure
        : error instanceof CommentsConfigError
          ? "config"
          : "unexpected";
    return {
      status: 503,
      statusText: "Service Unavailable",
      headers: { "Cache-Control": "no-store", "X-Comments-Failure": failure },
    };
  }
}

// The digest of a page's comments: what says whether its stored rendering can be reused. Pure: no I/O.
// A page renders the same from the same comments in any order (render/comment-tree.ts sorts them
// by the fields that are hashed), so the freshness state's page digest (freshness-state.ts) says
// all a digest must. The crawl folds it in while it waits on the network, and a check leaves it
// with its crawl, so a build hashes no comment of its own: hashing 53,000 comments again took a
// warm build's sync 0.3 s.
import type { CommentThread } from "../api/generated/api-types.ts";
import type { CompleteFreshnessState } from "../freshness/freshness-state.ts";
import { threadsDigest } from "../freshness/freshness-state.ts";
import { integrityDigest } from "../utils/integrity-digest.ts";

/**
 * A page's digest (16 hex digits, like Astro's) from the renderer's version and its threads: the
 * crawl's digest of the page when it holds exactly these threads, else one made from them (pages
 * that merge aliases, whose threads the crawl's state keeps apart).
 */
export function entryDigest(
  renderVersion: string,
  threads: readonly CommentThread[],
  count: number,
  crawled?: CompleteFreshnessState["pages"][string],
): string {
  return crawled !== undefined && crawled.count === count
    ? crawledDigest(renderVersion, crawled)
    : integrityDigest(`${renderVersion}\n${threadsDigest(threads)}`);
}

/** A page's digest from the crawl's digest of its threads, when the crawl's state holds the page. */
export const crawledDigest = (renderVersion: string, crawled: CompleteFreshnessState["pages"][string]): string =>
  integrityDigest(`${renderVersion}\n${crawled.digest}`);

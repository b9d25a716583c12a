// A live-collection loader (Astro 6+, src/live.config.ts) for pages rendered on demand: each
// request fetches that one page's comments from the API, so a comment approved after the build
// shows at once. Same rendering as the build loader (sanitize, highlight, order). It imports
// nothing from Astro at run time, so on Astro 5 (no stable live collections) importing it, or the
// rest of the package, still works; only using it needs Astro 6.
import type { LiveLoader } from "astro/loaders";
import type { CommentThread } from "./api/generated/api-types.ts";
import { pathEndpoint, storedSpellings } from "./api/path-query.ts";
import type { PageCommentsData } from "./loader/entry-schema.ts";
import { apiError } from "./api/api-error.ts";
import { CommentsApiError, CommentsConfigError } from "./errors.ts";
import { LiveLoadFailed } from "./errors-data.ts";
import { whileWaited } from "./api/patience.ts";
import { fetchPageThreads, fetchThreads, liveSettings } from "./loader/live-page.ts";
import type { CommentsOptions } from "./integration/options.ts";
import { groupThreadsByPage, renderPageComments, sortPageThreads } from "./render/comment-tree.ts";
import { pathKey } from "./render/path-key.ts";

/** Options a live loader accepts: where to fetch from, and how patiently. */
export type CommentsLiveLoaderOptions = Pick<
  CommentsOptions,
  | "domain"
  | "apiUrl"
  | "apiToken"
  | "perPage"
  | "timeout"
  | "retries"
  | "giveUpAfter"
  | "rateLimitWait"
  | "maxResponseBytes"
>;

/** `getLiveCollection("liveComments", { path })` narrows the collection to one page. */
export interface CommentsCollectionFilter {
  path?: string;
}

type LiveError = CommentsApiError | CommentsConfigError;

/** The cache tag of a page's comments, for invalidating one page's cached responses. */
export const commentsCacheTag = (path: string) => `comments:${pathKey(path)}`;

function newest(data: PageCommentsData): Date | undefined {
  let latest = "";
  for (const comment of data.comments) {
    for (const one of [comment, ...comment.replies]) {
      const at = new Date(one.createdAt).toISOString();
      if (at > latest) latest = at;
    }
  }
  return latest === "" ? undefined : new Date(latest);
}

async function pageEntry(key: string, threads: readonly CommentThread[]) {
  const data = await renderPageComments(key, sortPageThreads(threads));
  const lastModified = newest(data);
  return { id: key, data, cacheHint: { tags: [commentsCacheTag(key)], ...(lastModified ? { lastModified } : {}) } };
}

const asError = (error: unknown): LiveError =>
  error instanceof CommentsApiError || error instanceof CommentsConfigError
    ? error
    : apiError(LiveLoadFailed, { url: "(live loader)" }, { reason: (error as Error).message });

/**
 * Comments of pages rendered on demand, fetched per request. `getLiveEntry("liveComments", path)`
 * gives one page's entry (the same data as the build collection's, with `count: 0` for a page
 * without comments); `getLiveCollection("liveComments", { path })` the same as a list, and without
 * a filter every page of the domain. Failures come back as `{ error }` (a CommentsApiError with the
 * URL and status), never thrown.
 *
 * @example
 * // src/live.config.ts
 * import { defineLiveCollection } from "astro:content";
 * import { commentsLiveLoader } from "astro-comments/live-loader";
 * export const collections = { liveComments: defineLiveCollection({ loader: commentsLiveLoader() }) };
 */
export function commentsLiveLoader(options: CommentsLiveLoaderOptions = {}) {
  return {
    name: "astro-comments-live",
    // Parameter types spelled out, so the declarations need no Astro 6 types (Astro 5 users can
    // still type-check a project that imports the package).
    loadEntry: async ({ filter }: { filter: { id: string } }) => {
      try {
        const resolved = await liveSettings(options);
        const key = pathKey(filter.id);
        // A reader is waiting: little patience.
        return await pageEntry(key, await fetchPageThreads(key, resolved, whileWaited(resolved)));
      } catch (error) {
        return { error: asError(error) };
      }
    },
    loadCollection: async ({ filter }: { filter?: CommentsCollectionFilter | undefined }) => {
      try {
        const resolved = await liveSettings(options);
        const { endpoint } = resolved.credentials;
        const key = filter?.path === undefined ? undefined : pathKey(filter.path);
        const endpoints =
          key === undefined ? [endpoint] : storedSpellings(key).map((path) => pathEndpoint(endpoint, path));
        const pages = groupThreadsByPage(await fetchThreads(resolved.credentials, whileWaited(resolved), endpoints));
        const entries = await Promise.all(
          [...pages].filter(([id]) => key === undefined || id === key).map(([id, threads]) => pageEntry(id, threads)),
        );
        return { entries, cacheHint: { tags: entries.flatMap((entry) => entry.cacheHint.tags) } };
      } catch (error) {
        return { error: asError(error) };
      }
    },
  } satisfies LiveLoader<PageCommentsData, { id: string }, CommentsCollectionFilter, LiveError>;
}

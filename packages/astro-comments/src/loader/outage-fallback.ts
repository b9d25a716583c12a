// When the fetch fails: the last good comments stay. The store Astro kept, or else the loader's own
// saved copy (last-good.ts), is put back with each page's comments module, and the build goes on,
// fails, or builds without comments as onError, allowEmpty and maxStaleHours say.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { escapeControlCharacters } from "../api/service-text.ts";
import { CommentsApiError, withoutTrace } from "../errors.ts";
import type { ResolvedOptions } from "../integration/options.ts";
import { renderCommentBody } from "../render/render-body.ts";
import { loadLanguagesOf } from "../render/highlight.ts";
import type { SiteHandoff } from "../site-registry.ts";
import { listPages, plural } from "../utils/counting.ts";
import type { PageCommentsData, PageEntryData } from "./entry-schema.ts";
import type { LastFetch, LastGoodEntries, LastGoodFiles } from "./last-good.ts";
import type { CommentModules } from "./module-files.ts";
import { storeShards, type PageToStore } from "./module-shards.ts";
import { publish, storedCounts, type SyncContext } from "./sync-context.ts";

/** When a fetch fails, how the build goes on. Dev never stops for it: it starts with what it has. */
function failurePolicy(site: SiteHandoff): Pick<ResolvedOptions, "onError" | "allowEmpty" | "maxStaleHours"> {
  const { onError, allowEmpty, maxStaleHours } = site.options;
  return site.command === "dev"
    ? { onError: "last-good", allowEmpty: true, maxStaleHours: Number.POSITIVE_INFINITY }
    : { onError, allowEmpty, maxStaleHours };
}

/**
 * Keeps the stored entries with their comments, each in the module its shard should have now (a
 * module written for another format or package location is rewritten from its data), and drops
 * those whose comments are gone or damaged: an entry without its comments would fail the build.
 * Resolves to the pages dropped (their comments are missing or damaged, or they come from an older release).
 */
export async function keepStored(context: SyncContext, modules: CommentModules): Promise<string[]> {
  const pages: PageToStore[] = [];
  const lost: string[] = [];
  for (const [id, entry] of context.store.entries()) {
    if (entry.filePath === undefined) {
      context.store.delete(id);
      lost.push(id);
    } else
      pages.push({
        id,
        digest: String(entry.digest),
        count: (entry.data as PageEntryData).count,
        render: async () => undefined,
      });
  }
  const { dropped } = await storeShards(context, modules, pages);
  return [...lost, ...dropped];
}

/** Bodies stored by another version of the renderer go through today's sanitizer and highlighter. */
async function rerender(data: PageCommentsData): Promise<PageCommentsData> {
  await loadLanguagesOf(
    data.comments.flatMap((comment) => [comment.html, ...comment.replies.map((reply) => reply.html)]),
  );
  const body = (html: string) => renderCommentBody(html, "").html;
  return {
    ...data,
    comments: data.comments.map((comment) => ({
      ...comment,
      html: body(comment.html),
      replies: comment.replies.map((reply) => ({ ...reply, html: body(reply.html) })),
    })),
  };
}

/**
 * Puts the saved entries back with their comments; an older renderer's comments are rendered
 * again. Resolves to the pages that could not be put back (their comments are missing or damaged).
 */
async function restoreSaved(
  context: SyncContext,
  modules: CommentModules,
  saved: LastGoodEntries,
  renderVersion: string,
): Promise<string[]> {
  let pages: PageToStore[];
  if (saved.renderVersion === renderVersion) {
    pages = saved.entries.map(({ id, digest, data, filePath }) => ({
      id,
      digest,
      count: data.count,
      from: filePath,
      render: async () => undefined,
    }));
  } else {
    const files = new Map(
      await Promise.all(
        [...new Set(saved.entries.map((entry) => entry.filePath))].map(
          async (filePath) => [filePath, await modules.read(filePath)] as const,
        ),
      ),
    );
    pages = saved.entries.map((entry) => {
      const data = files.get(entry.filePath)?.pages.get(entry.id);
      return {
        id: entry.id,
        digest: context.generateDigest(`${renderVersion}\n${entry.digest}`),
        count: entry.data.count,
        render: async () => data && rerender(data),
      };
    });
  }
  return (await storeShards(context, modules, pages)).dropped;
}

const formatTime = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

/** Falls back to the last good comments after a failed fetch, or fails the build as the options say. */
export async function keepLastGood(
  context: SyncContext,
  site: SiteHandoff,
  source: string,
  files: LastGoodFiles,
  modules: CommentModules,
  previousFetch: LastFetch | undefined,
  /** Today's renderer's: saved comments rendered by another are rendered again. */
  renderVersion: string,
  error: Error,
): Promise<void> {
  const { store, meta, logger } = context;
  const policy = failurePolicy(site);
  // Escaped: an error that is not ours (a library's) may still quote what the service sent.
  const reason = escapeControlCharacters(error.message.split("\n")[0]!.replace(/^astro-comments: /, ""));
  // Branded: the integration's early fetch runs in the copy of the package Node loaded for
  // astro.config, this code in the one Vite loaded, and instanceof still holds.
  const expected = error instanceof CommentsApiError;
  const fail = (extra: string) => {
    error.message = `${error.message}${extra}`;
    throw expected ? withoutTrace(error, (trace) => logger.debug(trace)) : error;
  };
  if (policy.onError === "fail") fail(' (onError: "fail")');

  let fetchedAt: string | undefined;
  let lost: string[] = [];
  // Astro saves its store when the sync ends, the loader its own copy while pages render: a build
  // killed in between leaves one copy newer than the other, and the newer one is kept.
  const stored = meta.get("source") === source && store.keys().length > 0;
  const storedAt = meta.get("fetchedAt");
  const savedIsNewer = previousFetch !== undefined && storedAt !== undefined && previousFetch.fetchedAt > storedAt;
  const saved = stored && !savedIsNewer ? undefined : await files.readEntries();
  if (stored && saved === undefined) {
    lost = await keepStored(context, modules);
    fetchedAt = storedAt ?? previousFetch?.fetchedAt;
  } else {
    store.clear();
    if (saved) {
      lost = await restoreSaved(context, modules, saved, renderVersion);
      if (saved.unreadable > 0) {
        logger.warn(
          `the saved list of pages in ${join(fileURLToPath(context.config.cacheDir), "astro-comments")} is cut short or damaged: ${plural(saved.unreadable, "page")} in it cannot be read and ${saved.unreadable === 1 ? "is" : "are"} built without comments; the other ${plural(saved.entries.length, "page")} keep theirs`,
        );
      }
      meta.set("source", source);
      fetchedAt = previousFetch?.fetchedAt ?? saved.fetchedAt;
      if (fetchedAt) meta.set("fetchedAt", fetchedAt);
    }
  }

  const pages = store.keys().length;
  site.storedPages = storedCounts(context);
  // An earlier fetch whose comments are all gone is no earlier fetch to fall back on.
  const nothingKept = pages === 0 && (fetchedAt === undefined || lost.length > 0);
  if (nothingKept) {
    const why =
      fetchedAt === undefined
        ? "there is no earlier fetch to fall back on"
        : `the earlier fetch's comments are missing or damaged in ${modules.dir}`;
    if (!policy.allowEmpty)
      fail(` ${why[0]!.toUpperCase()}${why.slice(1)}; set allowEmpty: true to build without comments instead.`);
    publish(site, { fetchedAt: null, stale: true, error: reason });
    logger.warn(`building without comments, because the fetch failed and ${why}: ${reason}`);
    return;
  }
  if (lost.length > 0) {
    logger.warn(
      `the saved comments of ${listPages(lost)} are missing or damaged in ${modules.dir}, so ${lost.length === 1 ? "that page is" : "those pages are"} built without comments; the other ${plural(pages, "page")} keep theirs`,
    );
  }
  const ageHours =
    fetchedAt === undefined ? Number.POSITIVE_INFINITY : (Date.now() - Date.parse(fetchedAt)) / 3_600_000;
  if (ageHours > policy.maxStaleHours) {
    const asOf = fetchedAt === undefined ? "an unknown time" : formatTime(fetchedAt);
    fail(
      ` The last good comments (as of ${asOf}) are older than maxStaleHours (${policy.maxStaleHours} h), so the build stops rather than ship them.`,
    );
  }
  publish(site, { fetchedAt: fetchedAt ?? null, stale: true, error: reason });
  logger.warn(
    `showing the comments as of ${fetchedAt ? formatTime(fetchedAt) : "an unknown time"} (${plural(pages, "page")}), because the fetch failed: ${reason}`,
  );
}

// What the loader does on every sync: fetch every comment, and update one entry per page in
// Astro's data store, its comments in a content module (see comment-shards.ts). Pages whose
// comments did not change keep their entry, digest and module, and are neither sanitized nor
// highlighted again. When the fetch fails, the last good comments stay.
import type { LoaderContext } from "astro/loaders";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PageCommentsData, PageEntryData } from "./entry-schema.ts";
import { CommentsApiError, withoutTrace } from "./errors.ts";
import type { CrawlSummary } from "./api/crawl-comments.ts";
import { escapeControlCharacters } from "./api/service-text.ts";
import { startFetch, type ClientOverrides } from "./fetch-comments.ts";
import type { FetchStatus } from "./fetch-status.ts";
import { lastGoodFiles, type LastFetch, type LastGoodEntries, type LastGoodFiles, type StoredEntry } from "./last-good.ts";
import type { Credentials, ResolvedOptions } from "./options.ts";
import { commentModules, type CommentModules } from "./comment-modules.ts";
import { storeShards, type PageToStore } from "./comment-shards.ts";
import { aliasedKey, buildAliasMap, dedupeAliasedThreads, type RedirectTarget } from "./render/aliases.ts";
import { countComments, groupThreadsByPage, renderPageComments, sortPageThreads } from "./render/comment-tree.ts";
import { loadLanguagesOf } from "./render/highlight.ts";
import { pageDigest } from "./render/page-digest.ts";
import { RENDER_VERSION, renderCommentBody } from "./render/render-body.ts";
import type { SiteState } from "./site-registry.ts";

type Context = Pick<LoaderContext, "collection" | "store" | "meta" | "logger" | "config" | "generateDigest">;

const count = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, word: string) => `${count(n)} ${word}${n === 1 ? "" : "s"}`;

/** Identifies where comments come from: entries of another domain or service are never reused. */
const sourceOf = (credentials: Credentials) => `${credentials.domain} ${credentials.endpoint.href}`;

/** When a fetch fails, how the build goes on. Dev never stops for it: it starts with what it has. */
function failurePolicy(site: SiteState): Pick<ResolvedOptions, "onError" | "allowEmpty" | "maxStaleHours"> {
  const { onError, allowEmpty, maxStaleHours } = site.options;
  return site.command === "dev" ? { onError: "last-good", allowEmpty: true, maxStaleHours: Number.POSITIVE_INFINITY } : { onError, allowEmpty, maxStaleHours };
}

function publish(site: SiteState, status: FetchStatus): void {
  site.status = status;
  site.onStatus?.(status);
}

export async function syncComments(context: Context, site: SiteState, overrides: ClientOverrides = {}): Promise<void> {
  const { store, meta, logger } = context;
  site.collection = context.collection;
  const credentials = site.options.credentials;
  if (credentials === undefined || site.command === "sync" || site.command === "preview") {
    // astro sync and check generate types; they must work offline and never fail because the API
    // is down, so they fetch nothing, credentials or not.
    const why = credentials === undefined ? "no credentials set" : site.command === "sync" ? "astro sync and astro check fetch nothing" : "astro preview fetches nothing";
    const modules = commentModules(context.config);
    const lost = await keepStored(context, modules);
    logger.info(`${why}, so no comments are fetched; ${plural(store.keys().length, "stored page")} kept${lost.length > 0 ? `, ${count(lost.length)} dropped (their saved comments are missing or damaged in ${modules.dir}: ${listPages(lost)})` : ""}`);
    return;
  }
  const source = sourceOf(credentials);
  const files = lastGoodFiles(context.config.cacheDir, source);
  const modules = commentModules(context.config);
  const previousFetch = await files.readFetch();

  let fetched;
  try {
    // The integration's early start serves the first sync; later syncs (dev refresh) fetch anew.
    const early = site.prefetch;
    site.prefetch = undefined;
    fetched = await (early ?? startFetch(site, credentials, logger, overrides));
  } catch (error) {
    await keepLastGood(context, site, source, files, modules, previousFetch, error as Error);
    return;
  }

  const { threads, summary, state } = fetched;
  if (state !== undefined) site.state = state;
  const redirects = (context.config.redirects ?? {}) as Record<string, RedirectTarget>;
  const aliases = buildAliasMap(site.options.aliases, redirects, context.config.base);
  const pages = groupThreadsByPage(threads, aliasedKey(aliases));
  threads.length = 0;
  const sameSource = meta.get("source") === source;
  const previousCount = sameSource ? store.keys().length : 0;
  if (!sameSource) store.clear();
  const unknownLanguages = new Set<string>();
  let comments = 0;
  const toStore: PageToStore[] = [];
  for (const [id, pageThreads] of pages) {
    // The digest is taken over the merged threads, so adding or removing an alias changes it.
    const sorted = sortPageThreads(aliases.size === 0 ? pageThreads : dedupeAliasedThreads(pageThreads, id));
    const digest = pageDigest(RENDER_VERSION, sorted);
    const count = countComments(sorted);
    comments += count;
    toStore.push({ id, digest, count, render: () => renderPageComments(id, sorted, unknownLanguages) });
  }
  const { rendered, damaged, filePaths } = await storeShards(context, modules, toStore);
  if (damaged.length > 0) logger.info(`rebuilt ${plural(damaged.length, "damaged comment module")} in ${modules.dir} from the fetch`);
  let removed = 0;
  for (const id of store.keys()) {
    if (!pages.has(id)) {
      store.delete(id);
      removed++;
    }
  }
  meta.set("source", source);
  const fetchedAt = new Date().toISOString();
  meta.set("fetchedAt", fetchedAt);

  const entries = storedEntries(context);
  // Over the modules too: when only their names change, the saved list must follow them.
  const contentDigest = context.generateDigest(entries.map((entry) => `${entry.id}\u0000${entry.digest}\u0000${entry.filePath}`).sort().join("\n"));
  const lastFetch: LastFetch = { source, fetchedAt, contentDigest };
  // Off the critical path: the build renders pages meanwhile, and the integration waits for it
  // when the build is done. A failed write costs only the fallback copy, never the build.
  site.pendingWrite = Promise.all([
    files.write(lastFetch, { source, contentDigest, renderVersion: RENDER_VERSION, fetchedAt }, entries, previousFetch),
    modules.prune(filePaths),
  ]).then(
    () => undefined,
    (error: Error) => logger.warn(`could not save the last good comments to ${fileURLToPath(context.config.cacheDir)}: ${error.message}`),
  );
  publish(site, { fetchedAt, stale: false });
  site.storedPages = storedCounts(context);

  if (unknownLanguages.size > 0) {
    logger.info(`code in languages PrismJS does not know is shown unhighlighted: ${[...unknownLanguages].sort().join(", ")}`);
  }
  if (pages.size === 0 && previousCount > 0) {
    logger.warn(`the comments API returned no comments for ${credentials.domain}, where the last fetch had ${plural(previousCount, "page")} of them; if that is wrong, check COMMENTS_DOMAIN`);
  }
  logger.info(`${plural(comments, "comment")} on ${plural(pages.size, "page")}: ${count(rendered)} rendered, ${count(pages.size - rendered)} unchanged, ${count(removed)} removed ${describeFetch(summary)}`);
}

function describeFetch(summary: CrawlSummary): string {
  const parts = [`${plural(summary.requests, "request")} of ${summary.perPage}`, `${(summary.bytes / 1_048_576).toFixed(1)} MiB`];
  if (summary.retries > 0) parts.push(`${count(summary.retries)} ${summary.retries === 1 ? "retry" : "retries"}`);
  if (summary.rateLimitPauses > 0) parts.push(`${plural(summary.rateLimitPauses, "rate-limit pause")} (${summary.rateLimitSeconds.toFixed(0)} s)`);
  if (summary.crawls > 1) parts.push(`${summary.crawls} crawls`);
  return `(${summary.seconds.toFixed(1)} s, ${parts.join(", ")})`;
}

/** A few pages by key, for a one-line message. */
function listPages(ids: readonly string[]): string {
  const shown = ids.slice(0, 5).join(", ");
  return ids.length > 5 ? `${shown} and ${count(ids.length - 5)} more` : shown;
}

/**
 * Keeps the stored entries with their comments, each in the module its shard should have now (a
 * module written for another format or package location is rewritten from its data), and drops
 * those whose comments are gone or damaged: an entry without its comments would fail the build.
 * Resolves to the pages dropped (their comments are missing or damaged, or they come from an older release).
 */
async function keepStored(context: Context, modules: CommentModules): Promise<string[]> {
  const pages: PageToStore[] = [];
  const lost: string[] = [];
  for (const [id, entry] of context.store.entries()) {
    if (entry.filePath === undefined) {
      context.store.delete(id);
      lost.push(id);
    } else pages.push({ id, digest: String(entry.digest), count: (entry.data as PageEntryData).count, render: async () => undefined });
  }
  const { dropped } = await storeShards(context, modules, pages);
  return [...lost, ...dropped];
}

function storedCounts(context: Context): Map<string, number> {
  return new Map(context.store.entries().map(([id, entry]) => [id, (entry.data as PageEntryData).count]));
}

function storedEntries(context: Context): StoredEntry[] {
  return context.store.entries().map(([id, entry]) => ({ id, digest: String(entry.digest), data: entry.data as PageEntryData, filePath: entry.filePath! }));
}

/** Bodies stored by another version of the renderer go through today's sanitizer and highlighter. */
async function rerender(data: PageCommentsData): Promise<PageCommentsData> {
  await loadLanguagesOf(data.comments.flatMap((comment) => [comment.html, ...comment.replies.map((reply) => reply.html)]));
  const body = (html: string) => renderCommentBody(html, "").html;
  return { ...data, comments: data.comments.map((comment) => ({ ...comment, html: body(comment.html), replies: comment.replies.map((reply) => ({ ...reply, html: body(reply.html) })) })) };
}

/**
 * Puts the saved entries back with their comments; an older renderer's comments are rendered
 * again. Resolves to the pages that could not be put back (their comments are missing or damaged).
 */
async function restoreSaved(context: Context, modules: CommentModules, saved: LastGoodEntries): Promise<string[]> {
  let pages: PageToStore[];
  if (saved.renderVersion === RENDER_VERSION) {
    pages = saved.entries.map(({ id, digest, data, filePath }) => ({ id, digest, count: data.count, from: filePath, render: async () => undefined }));
  } else {
    const files = new Map(await Promise.all([...new Set(saved.entries.map((entry) => entry.filePath))].map(async (filePath) => [filePath, await modules.read(filePath)] as const)));
    pages = saved.entries.map((entry) => {
      const data = files.get(entry.filePath)?.pages.get(entry.id);
      return { id: entry.id, digest: context.generateDigest(`${RENDER_VERSION}\n${entry.digest}`), count: entry.data.count, render: async () => data && rerender(data) };
    });
  }
  return (await storeShards(context, modules, pages)).dropped;
}

const formatTime = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

async function keepLastGood(context: Context, site: SiteState, source: string, files: LastGoodFiles, modules: CommentModules, previousFetch: LastFetch | undefined, error: Error): Promise<void> {
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
      lost = await restoreSaved(context, modules, saved);
      if (saved.unreadable > 0) {
        logger.warn(`the saved list of pages in ${join(fileURLToPath(context.config.cacheDir), "astro-comments")} is cut short or damaged: ${plural(saved.unreadable, "page")} in it cannot be read and ${saved.unreadable === 1 ? "is" : "are"} built without comments; the other ${plural(saved.entries.length, "page")} keep theirs`);
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
    const why = fetchedAt === undefined ? "there is no earlier fetch to fall back on" : `the earlier fetch's comments are missing or damaged in ${modules.dir}`;
    if (!policy.allowEmpty) fail(` ${why[0]!.toUpperCase()}${why.slice(1)}; set allowEmpty: true to build without comments instead.`);
    publish(site, { fetchedAt: null, stale: true, error: reason });
    logger.warn(`building without comments, because the fetch failed and ${why}: ${reason}`);
    return;
  }
  if (lost.length > 0) {
    logger.warn(`the saved comments of ${listPages(lost)} are missing or damaged in ${modules.dir}, so ${lost.length === 1 ? "that page is" : "those pages are"} built without comments; the other ${plural(pages, "page")} keep theirs`);
  }
  const ageHours = fetchedAt === undefined ? Number.POSITIVE_INFINITY : (Date.now() - Date.parse(fetchedAt)) / 3_600_000;
  if (ageHours > policy.maxStaleHours) {
    const asOf = fetchedAt === undefined ? "an unknown time" : formatTime(fetchedAt);
    fail(` The last good comments (as of ${asOf}) are older than maxStaleHours (${policy.maxStaleHours} h), so the build stops rather than ship them.`);
  }
  publish(site, { fetchedAt: fetchedAt ?? null, stale: true, error: reason });
  logger.warn(`showing the comments as of ${fetchedAt ? formatTime(fetchedAt) : "an unknown time"} (${plural(pages, "page")}), because the fetch failed: ${reason}`);
}

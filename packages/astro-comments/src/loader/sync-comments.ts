// What the loader does on every sync: fetch every comment, and update one entry per page in
// Astro's data store, its comments in a content module (see module-shards.ts). Pages whose
// comments did not change keep their entry, digest and module, and are neither sanitized nor
// highlighted again. When the fetch fails, outage-fallback.ts keeps the last good comments.
import type { CrawlSummary } from "../api/crawl-comments.ts";
import { configError, withoutTrace } from "../errors.ts";
import { CacheNotWritable } from "../errors-data.ts";
import type { Credentials } from "../integration/options.ts";
import type { CommentThread } from "../api/generated/api-types.ts";
import type { CompleteFreshnessState } from "../freshness/freshness-state.ts";
import {
  aliasedKey,
  buildAliasMap,
  dedupeAliasedThreads,
  type AliasMap,
  type RedirectTarget,
} from "../render/aliases.ts";
import { countComments, groupThreadsByPage, renderPageComments, sortPageThreads } from "../render/comment-tree.ts";
import type { SiteHandoff } from "../site-registry.ts";
import { count, listPages, plural } from "../utils/counting.ts";
import { prepareCacheFolder, storeRoomWarning } from "./cache-folder.ts";
import { crawledDigest, entryDigest } from "./entry-digest.ts";
import type { PageEntryData } from "./entry-schema.ts";
import { ago, startFetch, type ClientOverrides, type FetchedComments } from "./fetch-comments.ts";
import { lastGoodFiles, type LastFetch, type StoredEntry } from "./last-good.ts";
import { siteListHtml, listKey, siteSplit, type ListSettings } from "../render/site-list.ts";
import { commentModules, type ListMaker } from "./module-files.ts";
import { shardOf } from "./module-format.ts";
import { storeShards, type PageToStore } from "./module-shards.ts";
import { keepLastGood, keepStored } from "./outage-fallback.ts";
import { packageRenderer, renderCache, type RenderCacheCounts, type Renderer } from "./render-cache.ts";
import { publish, storedCounts, type SyncContext } from "./sync-context.ts";

/** Identifies where comments come from: entries of another domain or service are never reused. */
const sourceOf = (credentials: Credentials) => `${credentials.domain} ${credentials.endpoint.href}`;

/**
 * Each post's list as the site's pages show it, or its comment pages, made as its comments are
 * stored (render/site-list.ts); none before the integration has set up the site's pages.
 */
function listMaker({ options, pages }: SiteHandoff): ListMaker | undefined {
  if (pages === undefined) return undefined;
  const { order, dateFormat, heading, emptyText, messages } = options;
  const settings: ListSettings = { order, dateFormat, heading, emptyText, messages, pages };
  return {
    key: listKey(settings),
    list: (_key, data) => siteListHtml(data.comments, settings),
    split: (key, data) => siteSplit(key, data.comments, settings),
  };
}

/** A test's stand-ins: the client's clock and randomness, and the renderer the render cache calls. */
type SyncOverrides = ClientOverrides & { renderer?: Renderer };

export async function syncComments(
  context: SyncContext,
  site: SiteHandoff,
  overrides: SyncOverrides = {},
): Promise<void> {
  const { store, meta, logger } = context;
  site.collection = context.collection;
  const credentials = site.options.credentials;
  if (credentials === undefined || site.command === "sync" || site.command === "preview") {
    // astro sync and check generate types; they must work offline and never fail because the API
    // is down, so they fetch nothing, credentials or not.
    const why =
      credentials === undefined
        ? "no credentials set"
        : site.command === "sync"
          ? "astro sync and astro check fetch nothing"
          : "astro preview fetches nothing";
    const modules = commentModules(context.config, listMaker(site));
    const lost = await keepStored(context, modules);
    logger.info(
      `${why}, so no comments are fetched; ${plural(store.keys().length, "stored page")} kept${lost.length > 0 ? `, ${count(lost.length)} dropped (their saved comments are missing or damaged in ${modules.dir}: ${listPages(lost)})` : ""}`,
    );
    return;
  }
  const source = sourceOf(credentials);
  const files = lastGoodFiles(context.config.cacheDir, source);
  const modules = commentModules(context.config, listMaker(site));
  // While the fetch runs (see cache-folder.ts): only a fetch that succeeded stops for a refusal.
  const refusals = prepareCacheFolder([files.dir, modules.dir], site.command === "build");
  const previousFetch = await files.readFetch();
  // Its version (the package's, PrismJS's and RENDER_VERSION) is part of every page's digest, as of
  // every cached body's: after an upgrade of either, no page keeps the older rendering.
  const renderer = overrides.renderer ?? packageRenderer();

  let fetched;
  try {
    // The integration's early start serves the first sync; later syncs (dev refresh) fetch anew.
    const early = site.prefetch;
    site.prefetch = undefined;
    fetched = await (early ?? startFetch(site, credentials, logger, overrides));
  } catch (error) {
    await refusals;
    await keepLastGood(context, site, source, files, modules, previousFetch, renderer.version, error as Error);
    return;
  }

  const refused = await refusals;
  if (refused !== undefined)
    throw withoutTrace(configError(CacheNotWritable, refused.dir, refused.code), (trace) => logger.debug(trace));
  const { summary, crawlState } = fetched;
  site.crawlState = crawlState;
  const redirects = (context.config.redirects ?? {}) as Record<string, RedirectTarget>;
  const aliases = buildAliasMap(site.options.aliases, redirects, context.config.base);
  const pages = pageInputs(fetched.threads, crawlState, aliases, renderer.version);
  const sameSource = meta.get("source") === source;
  const previousCount = sameSource ? store.keys().length : 0;
  if (!sameSource) store.clear();
  const unknownLanguages = new Set<string>();
  const bodies = renderCache(context.config.cacheDir, logger, renderer);
  const renderedPages = new Set<string>();
  let comments = 0;
  const toStore: PageToStore[] = [];
  for (const [id, { count, digest, threads }] of pages) {
    comments += count;
    toStore.push({
      id,
      digest,
      count,
      render: async () => {
        renderedPages.add(id);
        const sorted = sortPageThreads(threads());
        return renderPageComments(id, sorted, unknownLanguages, await bodies.renderer(shardOf(id)));
      },
    });
  }
  // Once a shard is stored, the bodies of its pages that were not rendered (the modules kept them)
  // stay in its pack, and the pack is saved.
  const { rendered, damaged, filePaths } = await storeShards(context, modules, toStore, (shard, members) => {
    if (!bodies.read(shard)) return;
    let unread = false;
    for (const { id } of members) {
      if (renderedPages.has(id)) continue;
      const { held, threads } = pages.get(id)!;
      if (held)
        bodies.retain(
          shard,
          threads().flatMap((thread) => [thread, ...thread.children]),
        );
      else unread = true;
    }
    if (unread) bodies.keepAll(shard);
    bodies.save(shard);
  });
  if (damaged.length > 0)
    logger.info(`rebuilt ${plural(damaged.length, "damaged comment module")} in ${modules.dir} from the fetch`);
  let removed = 0;
  for (const id of store.keys()) {
    if (!pages.has(id)) {
      store.delete(id);
      removed++;
    }
  }
  meta.set("source", source);
  // Reused, the comments are as of the check's crawl, and say so.
  const fetchedAt = fetched.reused?.crawledAt ?? new Date().toISOString();
  meta.set("fetchedAt", fetchedAt);

  const entries = storedEntries(context);
  // Over the modules too: when only their names change, the saved list must follow them.
  const contentDigest = context.generateDigest(
    entries
      .map((entry) => `${entry.id}\u0000${entry.digest}\u0000${entry.filePath}`)
      .sort()
      .join("\n"),
  );
  const lastFetch: LastFetch = { source, fetchedAt, contentDigest };
  if (site.command === "build") {
    const warning = await storeRoomWarning(context.config.cacheDir, entries);
    if (warning) logger.warn(warning);
  }
  // Off the critical path: the build renders pages meanwhile, and the integration waits for it
  // when the build is done. A failed write costs only the fallback copy, never the build. Old
  // modules go only once the saved list no longer points at them.
  const saved = bodies.finish();
  const listed = files
    .write(lastFetch, { source, contentDigest, renderVersion: renderer.version, fetchedAt }, entries, previousFetch)
    .then(
      () => modules.prune(filePaths),
      // One line: which file, the errno, what it costs and what to do.
      (error: Error) =>
        logger.warn(
          `${error.message}, so the last good comments were not saved; this build is complete, but a build during an outage will fall back to the copy saved before it. Free space on that disk, or set cacheDir in astro.config to a folder with room`,
        ),
    );
  // The render cache's writes never reject: a failed write warns once and costs the next build the work.
  site.pendingWrite = Promise.all([listed, saved]).then(() => undefined);
  publish(site, { fetchedAt, stale: false });
  site.storedPages = storedCounts(context);

  if (unknownLanguages.size > 0) {
    logger.info(
      `code in languages PrismJS does not know is shown unhighlighted: ${[...unknownLanguages].sort().join(", ")}`,
    );
  }
  if (pages.size === 0 && previousCount > 0) {
    logger.warn(
      `the comments API returned no comments for ${credentials.domain}, where the last fetch had ${plural(previousCount, "page")} of them; if that is wrong, check COMMENTS_DOMAIN`,
    );
  }
  logger.info(
    `${plural(comments, "comment")} on ${plural(pages.size, "page")}: ${count(rendered)} rendered, ${count(pages.size - rendered)} unchanged, ${count(removed)} removed ${describeFetch(summary, fetched.reused)}${rendered > 0 ? describeBodies(bodies.counts) : ""}`,
  );
}

/** What the sync knows of a page before it stores it. */
interface PageInput {
  count: number;
  digest: string;
  /** Its threads, aliases merged. */
  threads(): readonly CommentThread[];
  /** Whether its threads are in memory already; if not, they are read from the check's crawl when asked for. */
  held: boolean;
}

/**
 * Every page's count, digest and threads. Right after a check, without aliases, the crawl's state
 * gives each page's count and digest, and a page's threads are decoded from the check's crawl only
 * when it is rendered: the pages whose comments did not change are never read.
 */
function pageInputs(
  threads: FetchedComments["threads"],
  crawlState: CompleteFreshnessState,
  aliases: AliasMap,
  renderVersion: string,
): Map<string, PageInput> {
  const inputs = new Map<string, PageInput>();
  // Told apart by shape: the integration (Node) and the loader (Vite's module runner) may each
  // hold a copy of the class.
  const crawl = Array.isArray(threads) ? undefined : threads;
  if (crawl !== undefined && aliases.size === 0) {
    for (const [id, crawled] of Object.entries(crawlState.pages)) {
      const digest = crawledDigest(renderVersion, crawled);
      inputs.set(id, { count: crawled.count, digest, threads: () => crawl.of(id), held: false });
    }
    return inputs;
  }
  const served = crawl?.all() ?? (threads as CommentThread[]);
  for (const [id, pageThreads] of groupThreadsByPage(served, aliasedKey(aliases))) {
    // The digest is taken over the merged threads, so adding or removing an alias changes it. The
    // crawl's state keys pages by the service's paths: it holds a page's threads only without aliases.
    const merged = aliases.size === 0 ? pageThreads : dedupeAliasedThreads(pageThreads, id);
    const count = countComments(merged);
    const crawled = aliases.size === 0 && Object.hasOwn(crawlState.pages, id) ? crawlState.pages[id] : undefined;
    const digest = entryDigest(renderVersion, merged, count, crawled);
    inputs.set(id, { count, digest, threads: () => merged, held: true });
  }
  served.length = 0;
  return inputs;
}

function describeFetch(summary: CrawlSummary, reused: FetchedComments["reused"]): string {
  if (reused) {
    return `(reused the crawl astro-comments check made ${ago(reused.ageMs)} ago: ${plural(summary.requests, "request")} of ${summary.perPage}, ${(summary.bytes / 1_048_576).toFixed(1)} MiB; no request now)`;
  }
  const parts = [
    `${plural(summary.requests, "request")} of ${summary.perPage}`,
    `${(summary.bytes / 1_048_576).toFixed(1)} MiB`,
  ];
  if (summary.retries > 0) parts.push(`${count(summary.retries)} ${summary.retries === 1 ? "retry" : "retries"}`);
  if (summary.rateLimitPauses > 0)
    parts.push(`${plural(summary.rateLimitPauses, "rate-limit pause")} (${summary.rateLimitSeconds.toFixed(0)} s)`);
  if (summary.crawls > 1) parts.push(`${summary.crawls} crawls`);
  return `(${summary.seconds.toFixed(1)} s, ${parts.join(", ")})`;
}

function describeBodies({ reused, rendered, damaged }: RenderCacheCounts): string {
  const read =
    damaged > 0 ? `, ${count(damaged)} damaged cache ${damaged === 1 ? "entry" : "entries"} rendered again` : "";
  return `; comment bodies: ${count(rendered)} sanitized and highlighted, ${count(reused)} from the render cache${read}`;
}

function storedEntries(context: SyncContext): StoredEntry[] {
  return context.store.entries().map(([id, entry]) => ({
    id,
    digest: String(entry.digest),
    data: entry.data as PageEntryData,
    filePath: entry.filePath!,
  }));
}

// Read side, for components and for sites that want the data itself:
//   import { getComments, getCommentCount } from "astro-comments/data";
// Everything comes from the comments collection through astro:content, so it works wherever
// Astro renders (Node, workerd, on-demand pages) and incremental builds can see it: counts and
// digests from the entries, comments from each entry's content module (render(entry)), which is
// loaded only for a page that shows them.
import { getCollection, render } from "astro:content";
import config from "virtual:astro-comments/config";
import notice from "virtual:astro-comments/notice";
import type { PageCommentsData, PageEntryData } from "./loader/entry-schema.ts";
import { fillTemplate, formatCount, formatNumber, pluralCategory, type PluralForms } from "./i18n/messages.ts";
import { localeSettings, pageLocale, type PageLocale } from "./i18n/page-locale.ts";
import type { RenderSettings } from "./integration/options.ts";
import { commentItemChunks, commentItemsHtml } from "./render/comment-markup.ts";
import { commentView, dateFormatter } from "./render/comment-view.ts";
import type { RenderedComment } from "./render/comment-tree.ts";
import {
  commentHrefs,
  commentPagePath,
  isPaginated,
  navItems,
  paginateComments,
  postHref,
  postParam,
  underBase,
  type CommentPage,
  type NavItem,
  type PostPagination,
  type ShownComment,
} from "./render/comment-pages.ts";
import { outlinedPagination } from "./render/pagination-outline.ts";
import { pathKey } from "./render/path-key.ts";
import { listFits, LISTS_FIELD, listKey, shownOrder, type ShardLists } from "./render/site-list.ts";
import { commentIdsByPage, movedLinksParam, movedLinksScript, movedLinksUrl } from "./render/moved-links.ts";
import { astroSafeString } from "./api/api-error.ts";
import { CommentsNotLoaded } from "./errors-data.ts";

export type { PageCommentsData, PageEntryData, StoredComment, StoredReply } from "./loader/entry-schema.ts";
export type { RenderedComment } from "./render/comment-tree.ts";
export type { CommentPage, NavItem, PostPagination, ShownComment } from "./render/comment-pages.ts";
export { freshFirstPage } from "./render/comment-pages.ts";
export { pathKey } from "./render/path-key.ts";
export { machineDate } from "./render/comment-markup.ts";
export { colorSchemeAttribute, customColorSchemeCss } from "./render/color-scheme.ts";
export { commentsJsonLd, serializeJsonLd, type CommentsJsonLdInput, type JsonLdNode } from "./render/json-ld.ts";
export {
  builtInMessages,
  type CommentMessages,
  type CommentMessageOverrides,
  type PluralForms,
} from "./i18n/messages.ts";
export type { PageLocale } from "./i18n/page-locale.ts";

export interface PageComments extends PageCommentsData {
  /** The entry's digest: changes exactly when the page's comments do. "" for a page without comments. */
  digest: string;
}

interface Entry {
  id: string;
  collection: string;
  digest?: string | number;
  filePath?: string;
  data: PageEntryData;
}

// One lookup table per build: getEntry would log a warning for every page without comments, and
// getCollection per page would be quadratic. In dev the entries change on refresh, so no table is kept.
let table: Promise<Map<string, Entry>> | undefined;

function entries(): Promise<Map<string, Entry>> {
  if (table === undefined || import.meta.env.DEV) {
    table = (getCollection(config.collection) as Promise<Entry[]>).then(
      (list) => new Map(list.map((entry) => [entry.id, entry])),
    );
  }
  return table;
}

type Shard = Record<string, PageCommentsData | undefined> & { [LISTS_FIELD]?: ShardLists };

// A shard's module, loaded once per build for all its pages (render() costs more than a lookup).
// In dev, entries move to new modules on refresh: nothing is kept, but for the length of one call
// that goes through every page (`during`).
const shards = new Map<string, Promise<Shard>>();

function loadShard(entry: Entry, during?: Map<string, Promise<Shard>>): Promise<Shard> {
  const key = entry.filePath ?? entry.id;
  const cached = shards.get(key) ?? during?.get(key);
  if (cached !== undefined) return cached;
  // render() hands the module's data back as remarkPluginFrontmatter: the comments of every page in
  // the entry's shard, by page key (see loader/module-format.ts).
  const loading = render(entry as Parameters<typeof render>[0]).then(
    (rendered: { remarkPluginFrontmatter: unknown }) => rendered.remarkPluginFrontmatter as Shard,
  );
  if (!import.meta.env.DEV) shards.set(key, loading);
  during?.set(key, loading);
  return loading;
}

// The comments of a post split by its count, read once per build. Without the split the loader
// writes (madeSplit: modules that carry the comments, settings changed since the sync), its comment
// pages' route keeps them in its getStaticPaths props for the whole of page generation, so the post
// page, its JSON-LD and that route share one copy and one split: read again, a thread of 200,000
// replies was parsed a second time beside the first (50 MB at the build's peak). Other posts'
// comments are read per page and let go.
const splitPosts = new WeakMap<Entry, Promise<PageComments>>();

function pageComments(entry: Entry): Promise<PageComments> {
  if (config.pages === false || entry.data.count <= config.pages.size) return readPageComments(entry);
  let reading = splitPosts.get(entry);
  if (reading === undefined) {
    reading = readPageComments(entry);
    splitPosts.set(entry, reading);
  }
  return reading;
}

/** The error for a page whose comments are not where its entry says (a damaged or missing module or data file). */
function notLoaded(entry: Entry): never {
  const error = new Error(CommentsNotLoaded.message(entry.id, entry.filePath ?? "its content module"));
  throw Object.assign(error, { hint: CommentsNotLoaded.hint, toString: () => astroSafeString(error) });
}

async function readPageComments(entry: Entry): Promise<PageComments> {
  const shard = await loadShard(entry);
  const data = Object.hasOwn(shard, entry.id) ? shard[entry.id] : undefined;
  if (!Array.isArray(data?.comments)) notLoaded(entry);
  return {
    path: entry.data.path,
    count: entry.data.count,
    comments: shownOrder(data.comments, config.order),
    digest: String(entry.digest ?? ""),
  };
}

/** The comments of one page (any spelling of its path: trailing slash, encoded, full URL). */
export async function getComments(path: string): Promise<PageComments> {
  const key = pathKey(path);
  const entry = (await entries()).get(key);
  return entry === undefined ? { path: key, count: 0, comments: [], digest: "" } : pageComments(entry);
}

const siteLocale = commentLocale();
const siteListKey = listKey(config);

/**
 * The `<li>` items of a post's comment list as the loader made them when it stored the comments,
 * with its count: what <Comments> writes on a page in the site's language, so a build after one
 * new comment does not render every other post's comments again. Undefined when there is no made
 * list to show (another language, a post split over comment pages, a site that renders on demand,
 * other settings): render the comments then.
 *
 * @example
 * const made = await getMadeCommentList("/posts/x", commentLocale(Astro.currentLocale));
 * // made?.html: the <li> items as <Comments> writes them; undefined: render getComments("/posts/x")
 */
export async function getMadeCommentList(
  path: string,
  page: PageLocale,
): Promise<{ count: number; html: string } | undefined> {
  if (!listFits(page, siteLocale)) return undefined;
  const entry = (await entries()).get(pathKey(path));
  if (entry === undefined) return undefined;
  const html = (await madeList(entry))?.html[entry.id];
  return html === undefined ? undefined : { count: entry.data.count, html };
}

/**
 * The made lists of the entry's shard when the loader made one for its post under the site's
 * settings: it makes one for every post that fits one page (render/site-list.ts). Its HTML is read
 * only when asked for.
 */
async function madeList(entry: Entry, during?: Map<string, Promise<Shard>>): Promise<ShardLists | undefined> {
  const lists = (await loadShard(entry, during))[LISTS_FIELD];
  return lists?.key === siteListKey && Object.hasOwn(lists.html, entry.id) ? lists : undefined;
}

// A split post's comment pages as the loader wrote them, one per entry: its comment pages' route,
// its post page and its JSON-LD share it, and each page reads only its own comments. Splitting the
// post here read its whole thread (200,000 replies) and kept it for the whole of page generation.
const outlined = new WeakMap<Entry, PostPagination>();

/**
 * The split of the entry's post when the loader wrote one under the site's settings: it writes one
 * for every post split over comment pages in a build's data files. Undefined otherwise (the split
 * is then made from the post's comments).
 */
async function madeSplit(entry: Entry, during?: Map<string, Promise<Shard>>): Promise<PostPagination | undefined> {
  const known = outlined.get(entry);
  if (known !== undefined) return known;
  const lists = (await loadShard(entry, during))[LISTS_FIELD];
  const read = lists?.read;
  if (lists?.key !== siteListKey || read === undefined || lists.split === undefined) return undefined;
  const outline = Object.hasOwn(lists.split, entry.id) ? lists.split[entry.id] : undefined;
  if (outline === undefined) return undefined;
  const pagination = outlinedPagination(outline, (at) => read(at) ?? notLoaded(entry));
  outlined.set(entry, pagination);
  return pagination;
}

/** What a page's comments section shows: its comments, or a split post's first page and its split. */
export interface ShownComments {
  /** Approved comments on the page, replies included. */
  count: number;
  comments: readonly ShownComment[];
  /** The post's comment pages; null when it shows every comment itself. */
  pagination: PostPagination | null;
}

/**
 * The comments a page's own section shows (what <Comments> and <CommentsJsonLd> render): all of
 * them, or for a post split over comment pages its first page. A split the loader wrote is read
 * page by page, without the post's other comments: then each page's `comments` are read from disk
 * whenever they are asked for, and a long thread's pages carry its parent without its replies.
 *
 * @example
 * const { count, comments, pagination } = await getShownComments("/posts/x");
 * // pagination?.pages: the post's comment pages, for a navigation (pageNav)
 */
export async function getShownComments(path: string): Promise<ShownComments> {
  const entry = (await entries()).get(pathKey(path));
  const made = entry === undefined ? undefined : await madeSplit(entry);
  if (made !== undefined) return { count: entry!.data.count, comments: made.pages[0]!.comments, pagination: made };
  const { count, comments } = await getComments(path);
  const pagination = commentPagination(path, comments);
  return { count, comments: pagination === null ? comments : pagination.pages[0]!.comments, pagination };
}

/** Approved comments on a page, replies included. Loads no comment. */
export async function getCommentCount(path: string): Promise<number> {
  return (await entries()).get(pathKey(path))?.data.count ?? 0;
}

/**
 * A page's digest as a `cacheKey` takes it: with the notice that the comments are out of date
 * (staleNotice) when this build shows it. The comments of a build during an outage are the last
 * good ones, digest and all, so without it a page rendered then kept its notice once the service
 * was back, and one rendered before lacked it during the outage.
 */
const withNotice = (digest: string) => (notice === null ? digest : `${digest}:stale:${notice.asOf ?? ""}`);

/**
 * A value that changes exactly when the page's comments change: fold it into an incremental
 * build's `cacheKey` so the page is rendered again when (and only when) a comment is approved,
 * a release of astro-comments or of PrismJS renders the comments anew, or the notice that they
 * are out of date (staleNotice) comes or goes.
 *
 * @example
 * return posts.map(async (post) => ({ params: { slug: post.id }, props: { post },
 *   cacheKey: `${post.digest}:${await getCommentsDigest(`/posts/${post.id}`)}` }));
 */
export async function getCommentsDigest(path: string): Promise<string> {
  return withNotice(String((await entries()).get(pathKey(path))?.digest ?? ""));
}

/** Every page that has comments, by page key. Loads every page's comments; for counts, use getAllCommentCounts. */
export async function getAllComments(): Promise<ReadonlyMap<string, PageComments>> {
  const all = [...(await entries())];
  const loaded = await Promise.all(all.map(([, entry]) => pageComments(entry)));
  return new Map(all.map(([key], index) => [key, loaded[index]!]));
}

/** Approved comments per page key, for every page that has comments. Loads no comment. */
export async function getAllCommentCounts(): Promise<ReadonlyMap<string, number>> {
  return new Map([...(await entries())].map(([key, entry]) => [key, entry.data.count]));
}

/** The settings the integration was configured with (order, date format, texts). */
export const renderSettings: RenderSettings = config;

/**
 * A page's locale, date locale and texts. Pass `Astro.currentLocale` (undefined without i18n
 * routing: then the site's locale, `dateFormat.locale`, applies).
 */
export function commentLocale(currentLocale?: string): PageLocale {
  return pageLocale(currentLocale, localeSettings(config));
}

/** A comment's created_at as the site shows it, per the dateFormat option (in `locale` when given). */
export function formatCommentDate(createdAt: string, locale = config.dateFormat.locale): string {
  return dateFormatter(config.dateFormat, locale)(createdAt);
}

/**
 * A number of comments in words, in the page's language: "1 comment", "12 Kommentare". With
 * `labels`, the number and the label its plural category picks: "12 replies".
 *
 * @example
 * formatCommentCount(12, commentLocale("de"), { one: "Antwort", other: "Antworten" }); // "12 Antworten"
 */
export function formatCommentCount(count: number, page: PageLocale = commentLocale(), labels?: PluralForms): string {
  if (labels === undefined) return formatCount(page.messages.count, count, page.locale);
  return `${formatNumber(count, page.locale)} ${labels[pluralCategory(count, page.locale)] ?? labels.other}`;
}

/** A number as the page's language writes it: "1,234", "1.234". */
export function formatCommentNumber(value: number, page: PageLocale = commentLocale()): string {
  return formatNumber(value, page.locale);
}

/** The id of a page's comments heading, which the section is labelled by: "comments-posts-hello". */
export function commentsHeadingId(path: string): string {
  return `comments-${
    pathKey(path)
      .replace(/[^A-Za-z0-9_-]+/g, "-")
      .replace(/^-+|-+$/g, "") || "root"
  }`;
}

/** The `<li>` items of a page's comment list, in the documented markup (what <Comments> renders). */
export function renderCommentItems(comments: readonly RenderedComment[], page: PageLocale = commentLocale()): string {
  return commentItemsHtml(comments, commentView(page, config.dateFormat));
}

/**
 * The same items in pieces, for `set:html`, which renders an iterable piece by piece: what
 * <Comments> uses, so a page with a huge thread never holds its list as one string besides the page.
 *
 * @example
 * <ol set:html={renderCommentItemChunks(comments)} />
 */
export function renderCommentItemChunks(
  comments: readonly RenderedComment[],
  page: PageLocale = commentLocale(),
): Iterable<string> {
  return commentItemChunks(comments, commentView(page, config.dateFormat));
}

// A split per list of comments: where a module keeps a page's comments (dev, sites with an
// adapter), <Comments>, <CommentsJsonLd> and the feeds share one; keyed weakly, so a list read
// afresh (a build's data files, each island answer) takes its split with it when it goes.
const paginations = new WeakMap<readonly RenderedComment[], PostPagination | null>();

/**
 * A post's comments split into comment pages (the `pages` option), or null when the post shows
 * every comment itself: pages are off, or its comments fit one page. `comments` are the post's, in
 * the order shown (getComments).
 */
export function commentPagination(path: string, comments: readonly RenderedComment[]): PostPagination | null {
  if (config.pages === false) return null;
  const cached = paginations.get(comments);
  if (cached !== undefined) return cached;
  const key = pathKey(path);
  const pagination = paginateComments(
    key,
    postHref(key, config.pages),
    comments as PageCommentsData["comments"],
    config.pages,
  );
  const result = isPaginated(pagination) ? pagination : null;
  paginations.set(comments, result);
  return result;
}

/**
 * Where each comment of a split post is: comment id → its page's URL and anchor. Undefined for a
 * post that shows every comment itself (each is at "#id" on the post). For the feeds, JSON-LD and
 * the island, so that every link to a comment lands on it.
 */
export function commentLinks(
  path: string,
  data: Pick<PageCommentsData, "comments">,
): ReadonlyMap<string, string> | undefined {
  const pagination = commentPagination(path, data.comments);
  return pagination === null ? undefined : commentHrefs(pagination);
}

/** A page navigation as the section renders it; undefined for a single page. */
export interface PageNav {
  label: string;
  items: NavItem[];
  previous: string | undefined;
  next: string | undefined;
}

/** The navigation over `pages` with page `current` marked, labelled `label`. */
export function pageNav(pages: readonly CommentPage[], current: number, label: string): PageNav | undefined {
  if (pages.length < 2) return undefined;
  return {
    label,
    items: navItems(pages, current),
    previous: pages[current - 2]?.href,
    next: pages[current]?.href,
  };
}

/** What the comment page route renders: one page of a post's comments or of a long thread. */
export interface CommentPageProps {
  key: string;
  count: number;
  pagination: PostPagination;
  number: number;
  /** The long thread's parent id, on a thread's page. */
  thread?: string;
}

/** Each post with more comments than a page holds, split: what the comment pages and moved-links files are made of. */
async function* paginatedPosts(): AsyncGenerator<{
  key: string;
  count: number;
  pagination: PostPagination;
  digest: string;
}> {
  const settings = config.pages;
  if (settings === false) return;
  const loaded = new Map<string, Promise<Shard>>();
  for (const [key, entry] of await entries()) {
    // Comments on a path outside the base are on none of the site's pages.
    if (!underBase(key, settings.base)) continue;
    // Few comments can still be too heavy for one page; the made list says which are not, without
    // reading them. A post without one is read and weighed.
    if (entry.data.count <= settings.size && (await madeList(entry, loaded)) !== undefined) continue;
    const made = await madeSplit(entry, loaded);
    if (made !== undefined) {
      yield { key, count: entry.data.count, pagination: made, digest: String(entry.digest ?? "") };
      continue;
    }
    const { count, comments, digest } = await pageComments(entry);
    const pagination = commentPagination(key, comments);
    if (pagination !== null) yield { key, count, pagination, digest };
  }
}

/** One comment page's entry in getStaticPaths. */
interface CommentPageRoute {
  params: { page: string };
  props: CommentPageProps;
  /**
   * For Astro's incremental builds (7.2+; earlier versions ignore it): a page is restored from
   * Astro's cache while its post's comments are unchanged. Its post's comments are all it shows
   * besides code and config, which Astro hashes itself.
   */
  cacheKey: string;
}

/**
 * Every comment page the site needs, for the injected route's getStaticPaths: pages 2 and on of
 * each post with more comments than a page holds, and pages 2 and on of each long thread.
 */
export async function commentPageRoutes(): Promise<CommentPageRoute[]> {
  const routes: CommentPageRoute[] = [];
  if (config.pages === false) return routes;
  const { base } = config.pages;
  for await (const { key, count, pagination, digest } of paginatedPosts()) {
    const param = postParam(key, base);
    const cacheKey = withNotice(digest);
    for (const page of pagination.pages.slice(1)) {
      routes.push({
        params: { page: commentPagePath(param, page.number) },
        props: { key, count, pagination, number: page.number },
        cacheKey,
      });
    }
    for (const [thread, pages] of pagination.threads) {
      for (const page of pages.slice(1)) {
        routes.push({
          params: { page: commentPagePath(param, page.number, thread) },
          props: { key, count, pagination, number: page.number, thread },
          cacheKey,
        });
      }
    }
  }
  return routes;
}

/** The moved-links file of each split post (pages.movedLinks), for its route's getStaticPaths. */
export async function movedLinksRoutes(): Promise<
  Array<{ params: { page: string }; props: { pages: Record<string, string[]> } }>
> {
  const routes: Array<{ params: { page: string }; props: { pages: Record<string, string[]> } }> = [];
  if (config.pages === false || !config.pages.movedLinks) return routes;
  for await (const { key, pagination } of paginatedPosts()) {
    routes.push({
      params: { page: movedLinksParam(key, config.pages.base) },
      props: { pages: commentIdsByPage(pagination) },
    });
  }
  return routes;
}

/**
 * The inline script that takes a link to a comment that moved to the page now holding it, for a
 * split post when the site opts in (pages.movedLinks); undefined otherwise.
 */
export function movedLinks(path: string, pagination: PostPagination | null): string | undefined {
  if (pagination === null || config.pages === false || !config.pages.movedLinks) return undefined;
  return movedLinksScript(movedLinksUrl(pathKey(path), config.pages));
}

/** A comment page's title: "Comments on /posts/x (page 2 of 5)", in the page's language. */
export function commentPageTitle(props: CommentPageProps, page: PageLocale): string {
  const pages = props.thread === undefined ? props.pagination.pages : props.pagination.threads.get(props.thread)!;
  const values = {
    path: props.key,
    page: formatNumber(props.number, page.locale),
    pages: formatNumber(pages.length, page.locale),
  };
  const parent = props.thread === undefined ? undefined : pages[0]!.thread;
  return parent === undefined
    ? fillTemplate(page.messages.pageTitle, values)
    : fillTemplate(page.messages.threadTitle, { ...values, author: parent.author });
}

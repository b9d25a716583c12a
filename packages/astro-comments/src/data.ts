// Read side, for components and for sites that want the data itself:
//   import { getComments, getCommentCount } from "astro-comments/data";
// Everything comes from the comments collection through astro:content, so it works wherever
// Astro renders (Node, workerd, on-demand pages) and incremental builds can see it: counts and
// digests from the entries, comments from each entry's content module (render(entry)), which is
// loaded only for a page that shows them.
import { getCollection, render } from "astro:content";
import config from "virtual:astro-comments/config";
import type { PageCommentsData, PageEntryData } from "./loader/entry-schema.ts";
import { formatCount } from "./i18n/messages.ts";
import { pageLocale, type PageLocale } from "./i18n/page-locale.ts";
import type { RenderSettings } from "./integration/options.ts";
import { withMissingIds } from "./render/comment-id.ts";
import { commentItemChunks, commentItemsHtml, type CommentView } from "./render/comment-markup.ts";
import type { RenderedComment } from "./render/comment-tree.ts";
import { pathKey } from "./render/path-key.ts";
import { astroSafeString } from "./api/api-error.ts";
import { CommentsNotLoaded } from "./errors-data.ts";

export type { PageCommentsData, PageEntryData, StoredComment, StoredReply } from "./loader/entry-schema.ts";
export type { RenderedComment } from "./render/comment-tree.ts";
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

/** Top-level comments in the configured order (replies always oldest first). */
function ordered(comments: PageCommentsData["comments"]): PageCommentsData["comments"] {
  const complete = withMissingIds(comments);
  return config.order === "newest-first" ? [...complete].reverse() : complete;
}

type Shard = Record<string, PageCommentsData | undefined>;

// A shard's module, loaded once per build for all its pages (render() costs more than a lookup).
// In dev, entries move to new modules on refresh: nothing is kept.
const shards = new Map<string, Promise<Shard>>();

function loadShard(entry: Entry): Promise<Shard> {
  const key = entry.filePath ?? entry.id;
  const cached = shards.get(key);
  if (cached !== undefined) return cached;
  // render() hands the module's data back as remarkPluginFrontmatter: the comments of every page in
  // the entry's shard, by page key (see loader/module-format.ts).
  const loading = render(entry as Parameters<typeof render>[0]).then(
    (rendered: { remarkPluginFrontmatter: unknown }) => rendered.remarkPluginFrontmatter as Shard,
  );
  if (!import.meta.env.DEV) shards.set(key, loading);
  return loading;
}

async function pageComments(entry: Entry): Promise<PageComments> {
  const shard = await loadShard(entry);
  const data = Object.hasOwn(shard, entry.id) ? shard[entry.id] : undefined;
  if (!Array.isArray(data?.comments)) {
    const error = new Error(CommentsNotLoaded.message(entry.id, entry.filePath ?? "its content module"));
    throw Object.assign(error, { hint: CommentsNotLoaded.hint, toString: () => astroSafeString(error) });
  }
  return {
    path: entry.data.path,
    count: entry.data.count,
    comments: ordered(data.comments),
    digest: String(entry.digest ?? ""),
  };
}

/** The comments of one page (any spelling of its path: trailing slash, encoded, full URL). */
export async function getComments(path: string): Promise<PageComments> {
  const key = pathKey(path);
  const entry = (await entries()).get(key);
  return entry === undefined ? { path: key, count: 0, comments: [], digest: "" } : pageComments(entry);
}

/** Approved comments on a page, replies included. Loads no comment. */
export async function getCommentCount(path: string): Promise<number> {
  return (await entries()).get(pathKey(path))?.data.count ?? 0;
}

/**
 * A value that changes exactly when the page's comments change: fold it into an incremental
 * build's `cacheKey` so the page is rendered again when (and only when) a comment is approved.
 *
 * @example
 * return posts.map(async (post) => ({ params: { slug: post.id }, props: { post },
 *   cacheKey: `${post.digest}:${await getCommentsDigest(`/posts/${post.id}`)}` }));
 */
export async function getCommentsDigest(path: string): Promise<string> {
  return String((await entries()).get(pathKey(path))?.digest ?? "");
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
  return pageLocale(currentLocale, {
    dateLocale: config.dateFormat.locale,
    heading: config.heading,
    emptyText: config.emptyText,
    messages: config.messages,
  });
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A comment's created_at as the site shows it, per the dateFormat option (in `locale` when given). */
export function formatCommentDate(createdAt: string, locale = config.dateFormat.locale): string {
  const { timeZone, dateStyle, timeStyle } = config.dateFormat;
  const key = `${locale}|${timeZone}|${dateStyle}|${timeStyle}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { timeZone, dateStyle, ...(timeStyle ? { timeStyle } : {}) });
    formatters.set(key, formatter);
  }
  return formatter.format(new Date(createdAt));
}

/** A number of comments in words, in the page's language: "1 comment", "12 Kommentare". */
export function formatCommentCount(count: number, page: PageLocale = commentLocale()): string {
  return formatCount(page.messages.count, count, page.locale);
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
  return commentItemsHtml(comments, commentView(page));
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
  return commentItemChunks(comments, commentView(page));
}

const commentView = (page: PageLocale): CommentView => ({
  formatDate: (createdAt) => formatCommentDate(createdAt, page.dateLocale),
  messages: page.messages,
});

// A post's comment list as <Comments> shows it in the site's own language, made when the loader
// stores the post's comments rather than on every build's every page: a scheduled build after one
// new comment then writes the other pages' lists as they are, without reading their comments back,
// formatting 50,000 dates and escaping 50,000 names again (issue 40). Posts split over comment
// pages, and pages in another language, are rendered from the comments as before. Pure: no I/O.
import { localeSettings, pageLocale, type PageLocale } from "../i18n/page-locale.ts";
import type { ResolvedOptions } from "../integration/options.ts";
import type { StoredComment } from "../loader/entry-schema.ts";
import { withMissingIds } from "./comment-id.ts";
import { commentItemsHtml, LIST_VERSION, VIEW_MESSAGES } from "./comment-markup.ts";
import {
  fitsOnePage,
  isPaginated,
  ONE_PAGE_RULE,
  paginateComments,
  postHref,
  totalComments,
  type PagesSettings,
  type PostPagination,
  type ShownComment,
} from "./comment-pages.ts";
import type { CommentsAt, PaginationOutline } from "./pagination-outline.ts";
import { commentView } from "./comment-view.ts";

/** The most comments a made list holds when comment pages are off: about 1 MB of markup. */
const MADE_LIST_LIMIT = 1_000;

/**
 * Where a shard's made lists (and split posts' outlines) are in its module's frontmatter: a name
 * no page key can have (those start with "/").
 */
export const LISTS_FIELD = "#lists";

/** What the loader made for a shard's pages (their lists, or their comment pages), and the key it was made under. */
export interface ShardLists {
  key: string;
  /** Page key → its list's HTML; undefined when its bytes do not match their digest. */
  html: Record<string, string | undefined>;
  /**
   * Page key → the outline of a post split over comment pages (render/pagination-outline.ts);
   * undefined when its bytes do not match their digest. Only in a build's data files.
   */
  split?: Record<string, PaginationOutline | undefined>;
  /** A split post's page of comments, where its outline says; undefined when its bytes do not match their digest. */
  read?: (at: CommentsAt) => ShownComment[] | undefined;
}

/** What decides a list's markup besides its comments. */
export interface ListSettings
  extends Pick<ResolvedOptions, "order" | "dateFormat" | "heading" | "emptyText" | "messages"> {
  pages: PagesSettings | false;
}

/** Top-level comments in the configured order (replies always oldest first), each with its id. */
export function shownOrder(comments: StoredComment[], order: ListSettings["order"]): StoredComment[] {
  const complete = withMissingIds(comments);
  return order === "newest-first" ? [...complete].reverse() : complete;
}

/** The locale and texts of a page in the site's language (no i18n routing, or the default locale). */
export function siteLocale(settings: ListSettings): PageLocale {
  return pageLocale(undefined, localeSettings(settings));
}

/**
 * Whether a list made for `site` reads the same on `page`: the same dates and the same texts in it
 * (a page in "en" on a site whose dates are "en-GB" is one; a page in German is not).
 */
export function listFits(page: PageLocale, site: PageLocale): boolean {
  return (
    page.dateLocale === site.dateLocale && VIEW_MESSAGES.every((name) => page.messages[name] === site.messages[name])
  );
}

/**
 * The version of the data the dates are written with: the runtime's ICU and CLDR. Another Node can
 * write the same date differently (ICU 72 put a narrow no-break space before "AM"), and a list made
 * by the older one would stand beside pages rendered by the newer.
 */
export function intlDataVersion(): string {
  const versions = (globalThis as { process?: { versions?: Record<string, string | undefined> } }).process?.versions;
  return `${versions?.icu ?? ""} ${versions?.cldr ?? ""}`;
}

/**
 * Names everything besides the comments that a made list depends on: a list made under another
 * key (other options, an older markup, another runtime's date data) is never shown; the page
 * renders its comments instead, and the next sync makes the list again.
 */
export function listKey(settings: ListSettings, intl = intlDataVersion()): string {
  const { dateLocale, messages } = siteLocale(settings);
  const texts = VIEW_MESSAGES.map((name) => messages[name]);
  const pages = settings.pages === false ? false : { ...settings.pages, rule: ONE_PAGE_RULE };
  return JSON.stringify([LIST_VERSION, settings.order, settings.dateFormat, dateLocale, texts, pages, intl]);
}

/**
 * The `<li>` items <Comments> shows for a post on a page in the site's language, from its
 * comments as stored; undefined for a post split over comment pages (its first page has a
 * navigation to render beside it).
 */
export function siteListHtml(comments: StoredComment[], settings: ListSettings): string | undefined {
  const { pages } = settings;
  // A post is split exactly when it does not fit one page (comment-pages.ts), and the data API
  // reads that off the made lists: a post without one is split (data.ts). Without comment pages, a
  // huge post's list would be one string of its whole size, in memory twice while it is written:
  // such a post renders its list in pieces on its page instead.
  if (pages === false ? totalComments(comments) > MADE_LIST_LIMIT : !fitsOnePage(comments, pages.size))
    return undefined;
  return commentItemsHtml(shownOrder(comments, settings.order), commentView(siteLocale(settings), settings.dateFormat));
}

/**
 * A post's comments split over comment pages as its pages show them, made when the loader stores
 * them; undefined for a post that fits one page, or without comment pages.
 */
export function siteSplit(key: string, comments: StoredComment[], settings: ListSettings): PostPagination | undefined {
  const { pages } = settings;
  if (pages === false) return undefined;
  const pagination = paginateComments(key, postHref(key, pages), shownOrder(comments, settings.order), pages);
  return isPaginated(pagination) ? pagination : undefined;
}

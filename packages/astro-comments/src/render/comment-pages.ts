// Comment pages: a post with more comments than a page's budget is split over pages the build
// writes, and a thread bigger than the budget gets pages of its own. Pure: which comment goes on
// which page, and the URL of every page, so that every link to a comment (the markup, the feeds,
// JSON-LD, the island) lands where the comment is. docs/long-threads.md says why it is split so.
import type { AstroConfig } from "astro";
import type { StoredComment, StoredReply } from "../loader/entry-schema.ts";

/** Where comment pages live and how big they are (the `pages` option, resolved against the site). */
export interface PagesSettings {
  /** Comments per page, replies included. */
  size: number;
  /** The injected route's prefix, below the site's base: "/comments". */
  route: string;
  /** The site's base, as Astro resolved it ("/" or "/docs/"). */
  base: string;
  /** Whether the site's URLs end in "/" (trailingSlash and build.format). */
  trailingSlash: boolean;
  /** Whether pages carry the script that follows a link to a comment that moved (moved-links.ts). */
  movedLinks: boolean;
}

/** Replies of a thread that are not shown with it, and where they are. */
export interface MoreReplies {
  count: number;
  href: string;
}

/** A thread as a page shows it: a long thread's first replies, and a link to the rest. */
export type ShownComment = StoredComment & { more?: MoreReplies };

/** One page of a post's comments, or of a long thread's replies (then `thread` is its parent). */
export interface CommentPage {
  /** 1-based; page 1 of a post is the post itself, page 1 of a thread the post page that opens it. */
  number: number;
  href: string;
  comments: ShownComment[];
  thread?: StoredComment;
}

export interface PostPagination {
  /** The post's pages; the first is what the post itself shows. */
  pages: CommentPage[];
  /** Each long thread's pages by its parent's id: page 1 is the post page the thread starts on. */
  threads: Map<string, CommentPage[]>;
}

/** A long thread shows this share of the budget as replies where it starts; its pages hold the rest. */
const PREVIEW_SHARE = 10;

/**
 * A path as a link writes it, percent-encoded. Page keys are decoded, so a post's "#" or "?" is part
 * of its path ("/posts/c%23" is the post "/posts/c#"), never the start of a fragment or a query.
 */
export function urlPath(path: string): string {
  return encodeURI(path).replace(/[?#]/g, encodeURIComponent);
}

function withBase(settings: PagesSettings, path: string): string {
  const url = `${settings.base.replace(/\/+$/, "")}${urlPath(path)}`;
  return settings.trailingSlash ? `${url}/` : url;
}

/**
 * Whether a page key is under the site's base. Only such a path can be one of the site's pages:
 * comments on any other (the rest of a domain the site shares) get no comment pages, whose route
 * parameter would be a page's under the base ("/posts/x" and "/docs/posts/x" are both "posts/x").
 */
export function underBase(key: string, base: string): boolean {
  const prefix = base.replace(/\/+$/, "");
  return prefix === "" || key === prefix || key.startsWith(`${prefix}/`);
}

/** A post's path below the base, "index" for the home page: the route's parameter. */
export function postParam(key: string, base: string): string {
  const local = underBase(key, base) ? key.slice(base.replace(/\/+$/, "").length) : key;
  return local.replace(/^\/+/, "") || "index";
}

/**
 * Whether the site's page URLs end in "/" (trailingSlash and build.format). Astro writes a page
 * that is not an index route as page.html under "file" and "preserve", and a host serves that
 * file at /page, not /page/. Optional chaining: the unit tests hand the hook a partial config.
 */
export function urlsEndInSlash(config: Pick<AstroConfig, "trailingSlash" | "build">): boolean {
  const format = config.build?.format;
  return config.trailingSlash !== "never" && format !== "file" && format !== "preserve";
}

/** The URL of the post itself, from its key. */
export function postHref(key: string, settings: Pick<PagesSettings, "trailingSlash">): string {
  return urlPath(settings.trailingSlash && !key.endsWith("/") ? `${key}/` : key);
}

/**
 * A comment page's path below the route, from its post's parameter: page `number` of the post
 * ("posts/x/page/2"), or of a long thread ("posts/x/thread/<comment id>/2").
 */
export function commentPagePath(param: string, number: number, threadId?: string): string {
  return threadId === undefined ? `${param}/page/${number}` : `${param}/thread/${threadId}/${number}`;
}

// What commentPagePath puts after the post's parameter.
const PAGE_PATH = /^(.+)\/(?:page\/\d+|thread\/[^/]+\/\d+)$/;

/** The post's parameter in a comment page's path below the route (commentPagePath's inverse); undefined for any other path. */
export function postParamOfPagePath(path: string): string | undefined {
  return PAGE_PATH.exec(path)?.[1];
}

/** The URL of a post's comment page `number` (2 or more), or of its long thread's page. */
function commentPageHref(key: string, settings: PagesSettings, number: number, threadId?: string): string {
  return withBase(settings, `${settings.route}/${commentPagePath(postParam(key, settings.base), number, threadId)}`);
}

/** Elements of the markup around a comment's body: its item, article, header, author, permalink, time and body. */
const FRAME_ELEMENTS = 7;

/**
 * Elements of comments a page holds for each comment of its size. Short comments (8 elements)
 * fill a page by count, as before; a comment with highlighted code (60 elements for five lines of
 * JavaScript) takes the room of several, so a page of them stays as light as a page of short ones.
 */
const ELEMENTS_PER_COMMENT = 12;

/** A thread's replies sit in a list of their own: one element more than the replies. */
const REPLIES_LIST_ELEMENTS = 1;

/** The elements a comment adds to a page: its frame and its body's (sanitized, so "<" and a letter opens one). */
export function commentElements(html: string): number {
  let elements = FRAME_ELEMENTS;
  for (let at = html.indexOf("<"); at >= 0; at = html.indexOf("<", at + 1)) {
    const letter = html.charCodeAt(at + 1) | 0x20;
    if (letter >= 0x61 && letter <= 0x7a) elements++;
  }
  return elements;
}

/** How many of `weights` from `from` on fit `maxCount` and `maxElements`: at least one, when any is left. */
function fitting(weights: readonly number[], from: number, maxCount: number, maxElements: number): number {
  let count = 0;
  let elements = 0;
  while (from + count < weights.length && count < maxCount) {
    const next = weights[from + count]!;
    if (count > 0 && elements + next > maxElements) break;
    elements += next;
    count++;
  }
  return count;
}

function sum(weights: readonly number[], from: number, to: number): number {
  let total = 0;
  for (let i = from; i < to; i++) total += weights[i]!;
  return total;
}

/** What a thread's replies, of these weights, add to a page: their own elements and their list's. */
const repliesElements = (weights: readonly number[]): number =>
  weights.length > 0 ? REPLIES_LIST_ELEMENTS + sum(weights, 0, weights.length) : 0;

/** A post's comments, replies included. */
export function totalComments(comments: readonly StoredComment[]): number {
  return comments.reduce((total, comment) => total + 1 + comment.replies.length, 0);
}

/**
 * Names the rule of fitsOnePage, for the made lists' key: a list says its post fits one page
 * (data.ts), so lists made under an older rule are never trusted. Bump when the rule changes.
 */
export const ONE_PAGE_RULE = "count and weight, reply lists included";

/**
 * Whether a post shows all its comments itself: at most `size` of them, weighing at most a page's
 * elements, weighed as paginateComments weighs a page. Weighed only when few enough: a thread of
 * 200,000 replies is split by its count.
 */
export function fitsOnePage(comments: readonly StoredComment[], size: number): boolean {
  if (totalComments(comments) > size) return false;
  let elements = 0;
  for (const comment of comments)
    elements +=
      commentElements(comment.html) + repliesElements(comment.replies.map((reply) => commentElements(reply.html)));
  return elements <= size * ELEMENTS_PER_COMMENT;
}

/**
 * Splits a post's comments (top-level in the order shown, replies oldest first) into pages that
 * hold whole threads: at most `size` comments, and at most `size` times ELEMENTS_PER_COMMENT
 * elements of them. A thread bigger than a page shows its first replies where it starts and links
 * to its own pages, which repeat the parent at their head. A post that fits one page
 * (fitsOnePage) is that page, unchanged.
 */
export function paginateComments(
  key: string,
  postUrl: string,
  comments: readonly StoredComment[],
  settings: PagesSettings,
): PostPagination {
  const { size } = settings;
  if (fitsOnePage(comments, size))
    return { pages: [{ number: 1, href: postUrl, comments: [...comments] }], threads: new Map() };
  const maxElements = size * ELEMENTS_PER_COMMENT;
  const previewCount = Math.max(1, Math.floor(size / PREVIEW_SHARE));
  const groups: ShownComment[][] = [];
  const longThreads: Array<{ parent: StoredComment; rest: StoredReply[][]; group: number }> = [];
  let current: ShownComment[] = [];
  let usedCount = 0;
  let usedElements = 0;
  for (const comment of comments) {
    const own = commentElements(comment.html);
    const replies = comment.replies.map((reply) => commentElements(reply.html));
    const whole = own + repliesElements(replies);
    const preview =
      1 + replies.length > size || whole > maxElements
        ? fitting(replies, 0, previewCount, maxElements / PREVIEW_SHARE)
        : replies.length;
    const long = preview < replies.length;
    // A long thread's preview ends with the link to the rest: its list, an item and the link.
    const elements = long ? own + 3 + sum(replies, 0, preview) : whole;
    if (current.length > 0 && (usedCount + 1 + preview > size || usedElements + elements > maxElements)) {
      groups.push(current);
      current = [];
      usedCount = 0;
      usedElements = 0;
    }
    if (long) {
      const rest: StoredReply[][] = [];
      for (let at = preview; at < replies.length; ) {
        // Each page repeats the parent: a parent that fills most of a page still leaves half for replies.
        const taken = fitting(replies, at, size - 1, Math.max(maxElements - own - 1, maxElements / 2));
        rest.push(comment.replies.slice(at, at + taken));
        at += taken;
      }
      longThreads.push({ parent: comment, rest, group: groups.length });
      current.push({
        ...comment,
        replies: comment.replies.slice(0, preview),
        more: { count: comment.replies.length - preview, href: commentPageHref(key, settings, 2, comment.id) },
      });
    } else current.push(comment);
    usedCount += 1 + preview;
    usedElements += elements;
  }
  groups.push(current);
  const pages = groups.map((group, index) => ({
    number: index + 1,
    href: index === 0 ? postUrl : commentPageHref(key, settings, index + 1),
    comments: group,
  }));
  const threads = new Map<string, CommentPage[]>();
  for (const { parent, rest, group } of longThreads) {
    const opening: CommentPage = {
      number: 1,
      href: `${pages[group]!.href}#${parent.id}`,
      comments: [],
      thread: parent,
    };
    threads.set(parent.id, [
      opening,
      ...rest.map((replies, index) => ({
        number: index + 2,
        href: commentPageHref(key, settings, index + 2, parent.id),
        comments: [{ ...parent, replies }],
        thread: parent,
      })),
    ]);
  }
  return { pages, threads };
}

/**
 * The first page of a post's comments as they are now (the server island's), beside the comment
 * pages the last build wrote, which its navigation links to. Split afresh, its end would move with
 * every new reply, and the comments between it and the build's page 2 would be on no page a reader
 * reaches; a thread that grew long since would link to thread pages no build wrote. So it holds the
 * threads of the build's first page as they are now, and the new threads shown before the last of
 * them (newest-first: every new one). A thread the build split keeps as many replies as it showed
 * and its link to its pages; any other is shown whole. With no build pages, every comment.
 * `fresh` and `built` are in the order shown.
 *
 * @example
 * const built = commentPagination(path, (await getComments(path)).comments);
 * const shown = freshFirstPage(entry.data.comments, built);
 * const nav = built === null ? undefined : pageNav(built.pages, 1, "Comment pages");
 */
export function freshFirstPage(fresh: readonly StoredComment[], built: PostPagination | null): ShownComment[] {
  if (built === null) return [...fresh];
  const onFirst = new Map(built.pages[0]!.comments.map((comment) => [comment.id, comment]));
  const elsewhere = new Set(built.pages.slice(1).flatMap((page) => page.comments.map((comment) => comment.id)));
  const last = fresh.findLastIndex((comment) => onFirst.has(comment.id));
  const shown: ShownComment[] = [];
  for (const [index, comment] of fresh.entries()) {
    const was = onFirst.get(comment.id);
    if (was === undefined && (index > last || elsewhere.has(comment.id))) continue;
    shown.push(
      was?.more === undefined
        ? comment
        : { ...comment, replies: comment.replies.slice(0, was.replies.length), more: was.more },
    );
  }
  return shown;
}

/** Whether a post shows differently with comment pages than without: more than one page. */
export function isPaginated(pagination: PostPagination): boolean {
  return pagination.pages.length > 1 || pagination.threads.size > 0;
}

/**
 * Comment id → the URL of the page that holds it, with its anchor: a comment on the post page
 * keeps "#id" on the post's URL.
 */
export function commentHrefs(pagination: PostPagination): Map<string, string> {
  const hrefs = new Map<string, string>();
  for (const page of pagination.pages) {
    for (const comment of page.comments) {
      hrefs.set(comment.id, `${page.href}#${comment.id}`);
      for (const reply of comment.replies) hrefs.set(reply.id, `${page.href}#${reply.id}`);
    }
  }
  for (const pages of pagination.threads.values()) {
    for (const page of pages.slice(1)) {
      for (const reply of page.comments[0]!.replies) hrefs.set(reply.id, `${page.href}#${reply.id}`);
    }
  }
  return hrefs;
}

/** One entry of a page navigation: a page's link, or a gap between numbers. */
export type NavItem = { number: number; href: string; current: boolean } | { gap: true };

/** How many numbers either side of the current page the navigation lists besides the first and last. */
const NAV_NEIGHBOURS = 2;

/**
 * The numbered links of a navigation over `pages` (numbered 1, 2, … in order), current one
 * included: the first, the last and the current page's neighbours, so a thread of 2,000 pages
 * still has a navigation of a few links. Only those pages are read: every page of a long thread
 * has a navigation, and going through all its pages on each made the thread's build quadratic
 * (4 million steps for the 2,023 pages of 200,000 replies).
 */
export function navItems(pages: readonly Pick<CommentPage, "number" | "href">[], current: number): NavItem[] {
  const last = pages.length;
  const numbers = [1, last];
  for (let number = current - NAV_NEIGHBOURS; number <= current + NAV_NEIGHBOURS; number++) numbers.push(number);
  const items: NavItem[] = [];
  let previous = 0;
  for (const number of numbers.sort((a, b) => a - b)) {
    if (number <= previous || number > last) continue;
    if (number > previous + 1) items.push({ gap: true });
    items.push({ number, href: pages[number - 1]!.href, current: number === current });
    previous = number;
  }
  return items;
}

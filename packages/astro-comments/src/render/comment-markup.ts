// The HTML of a list of comments, per the documented markup contract. A string template rather
// than a recursive .astro component: a page with thousands of comments renders in milliseconds
// instead of seconds (measured in bench/run.ts). Every value that is not already-sanitized
// body HTML is escaped here.
import { fillTemplate, type CommentMessages } from "../i18n/messages.ts";
import type { MoreReplies } from "./comment-pages.ts";
import type { RenderedComment } from "./comment-tree.ts";
import { escapeHtml } from "./sanitize.ts";

/** A comment's created_at as a page shows it. */
export type DateFormatter = (createdAt: string) => string;

/**
 * Bump when the markup below changes: lists the loader made with an older one are then never
 * shown (render/site-list.ts). A unit test pins the markup and fails until this is bumped.
 */
export const LIST_VERSION = "1";

/** The texts the markup shows: a list made with the same ones (and dates) reads the same. */
export const VIEW_MESSAGES = ["replies", "permalink"] as const;

/** What the markup needs besides the comments: the page's date format and texts. */
export interface CommentView {
  formatDate: DateFormatter;
  messages: Pick<CommentMessages, (typeof VIEW_MESSAGES)[number]>;
  /** "312 more replies", for a long thread's link to its own pages. */
  moreReplies?: (count: number) => string;
}

/** A comment as a page shows it: a long thread says how many replies are on its own pages. */
type ShownComment = RenderedComment & { more?: MoreReplies };

/** created_at as an HTML datetime value: HTML allows at most three fractional digits, the API sends six. */
export function machineDate(createdAt: string): string {
  // Laravel's own form (six fractional digits, UTC) needs only cutting; anything else is parsed.
  return LARAVEL_UTC.test(createdAt) ? `${createdAt.slice(0, 23)}Z` : new Date(createdAt).toISOString();
}

const LARAVEL_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

/** A comment's item up to where its replies go, and from there to its end. */
function commentItemParts(
  comment: ShownComment,
  view: CommentView,
): { open: string; replies: readonly RenderedComment[]; close: string } {
  const author = escapeHtml(comment.author);
  const date = view.formatDate(comment.createdAt);
  const id = escapeHtml(comment.id);
  const replies = "replies" in comment ? comment.replies : [];
  // The header (name, date, permalink) is never a search hit: data-pagefind-ignore (docs/styling.md#search).
  // The permalink's name starts with its visible text (the date), as WCAG's "label in name" asks,
  // and says whose comment it is, because a list of links read out of context is a row of dates.
  const permalinkName = escapeHtml(fillTemplate(view.messages.permalink, { date, author: comment.author }));
  // The article is named by its author and date (a screen reader's list of articles reads "Ann 3
  // Jan 2026"), pointing at the text already shown rather than repeating it. dir="auto": a name or
  // body takes the direction of its own text, so Arabic on an English page (or the reverse) keeps
  // its punctuation and numbers in place.
  const open =
    `<li class="astro-comments__item"><article class="astro-comments__comment" aria-labelledby="${id}-author ${id}-time" data-comment id="${id}">` +
    `<header class="astro-comments__meta" data-pagefind-ignore><span class="astro-comments__author" id="${id}-author" dir="auto" data-comment-author>${author}</span> ` +
    `<a class="astro-comments__permalink" data-comment-permalink href="#${id}" aria-label="${permalinkName}">` +
    `<time class="astro-comments__time" id="${id}-time" datetime="${machineDate(comment.createdAt)}">${escapeHtml(date)}</time></a></header>` +
    `<div class="astro-comments__body" dir="auto" data-comment-body>${comment.html}</div>`;
  const more =
    comment.more === undefined
      ? ""
      : `<li class="astro-comments__more" data-comments-more><a href="${escapeHtml(comment.more.href)}">${escapeHtml(view.moreReplies?.(comment.more.count) ?? String(comment.more.count))}</a></li>`;
  if (replies.length === 0 && more === "") return { open, replies, close: "</article></li>" };
  // Screen readers announce a list's name when entering it: "Replies to Ann, list, 2 items".
  const list = `<ol class="astro-comments__replies" data-comment-replies aria-label="${escapeHtml(fillTemplate(view.messages.replies, { author: comment.author }))}">`;
  return { open: `${open}${list}`, replies, close: `${more}</ol></article></li>` };
}

/** How many comments' markup a piece of commentItemChunks holds. */
const CHUNK_COMMENTS = 1_000;

/**
 * The `<li>` items in pieces of about a thousand comments, each one flat string: a page renders
 * them as they come (`set:html` takes an iterable), so a thread of 200,000 replies never becomes
 * one string of 200,000 concatenations that lives until the page is written (measured alone, such
 * a 112 MB list held 166 MB of heap), on top of Astro's own copies of the page.
 */
export function* commentItemChunks(comments: readonly ShownComment[], view: CommentView): Generator<string> {
  let pieces: string[] = [];
  for (const comment of comments) {
    const { open, replies, close } = commentItemParts(comment, view);
    pieces.push(open);
    for (const reply of replies) {
      const item = commentItemParts(reply, view);
      pieces.push(item.open, item.close);
      if (pieces.length >= 2 * CHUNK_COMMENTS) {
        yield pieces.join("");
        pieces = [];
      }
    }
    pieces.push(close);
    if (pieces.length >= 2 * CHUNK_COMMENTS) {
      yield pieces.join("");
      pieces = [];
    }
  }
  if (pieces.length > 0) yield pieces.join("");
}

/** `<li>` items, one per comment, each holding its article (and its replies inside it). */
export function commentItemsHtml(comments: readonly ShownComment[], view: CommentView): string {
  return [...commentItemChunks(comments, view)].join("");
}

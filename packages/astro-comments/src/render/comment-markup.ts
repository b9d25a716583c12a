// The HTML of a list of comments, per the documented markup contract. A string template rather
// than a recursive .astro component: a page with thousands of comments renders in milliseconds
// instead of seconds (measured in scripts/bench.ts). Every value that is not already-sanitized
// body HTML is escaped here.
import { fillTemplate, type CommentMessages } from "../i18n/messages.ts";
import type { RenderedComment } from "./comment-tree.ts";
import { escapeHtml } from "./sanitize.ts";

export type DateFormatter = (createdAt: string) => string;

/** What the markup needs besides the comments: the page's date format and texts. */
export interface CommentView {
  formatDate: DateFormatter;
  messages: Pick<CommentMessages, "replies" | "permalink">;
}

/** created_at as an HTML datetime value: HTML allows at most three fractional digits, the API sends six. */
export function machineDate(createdAt: string): string {
  // Laravel's own form (six fractional digits, UTC) needs only cutting; anything else is parsed.
  return LARAVEL_UTC.test(createdAt) ? `${createdAt.slice(0, 23)}Z` : new Date(createdAt).toISOString();
}

const LARAVEL_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

function commentHtml(comment: RenderedComment, view: CommentView): string {
  const author = escapeHtml(comment.author);
  const date = view.formatDate(comment.createdAt);
  const id = escapeHtml(comment.id);
  // Screen readers announce a list's name when entering it: "Replies to Ann, list, 2 items".
  const replies = !("replies" in comment) || comment.replies.length === 0
    ? ""
    : `<ol class="astro-comments__replies" data-comment-replies aria-label="${escapeHtml(fillTemplate(view.messages.replies, { author: comment.author }))}">${commentItemsHtml(comment.replies, view)}</ol>`;
  // The header (name, date, permalink) is never a search hit: data-pagefind-ignore (docs/styling.md#search).
  // The permalink's name starts with its visible text (the date), as WCAG's "label in name" asks,
  // and says whose comment it is, because a list of links read out of context is a row of dates.
  const permalinkName = escapeHtml(fillTemplate(view.messages.permalink, { date, author: comment.author }));
  return (
    `<article class="astro-comments__comment" data-comment id="${id}">` +
    `<header class="astro-comments__meta" data-pagefind-ignore><span class="astro-comments__author" data-comment-author>${author}</span> ` +
    `<a class="astro-comments__permalink" data-comment-permalink href="#${id}" aria-label="${permalinkName}">` +
    `<time class="astro-comments__time" datetime="${machineDate(comment.createdAt)}">${escapeHtml(date)}</time></a></header>` +
    `<div class="astro-comments__body" data-comment-body>${comment.html}</div>${replies}</article>`
  );
}

/** `<li>` items, one per comment, each holding its article (and its replies inside it). */
export function commentItemsHtml(comments: readonly RenderedComment[], view: CommentView): string {
  let html = "";
  for (const comment of comments) html += `<li class="astro-comments__item">${commentHtml(comment, view)}</li>`;
  return html;
}

// The HTML of a list of comments, per the documented markup contract. A string template rather
// than a recursive .astro component: a page with thousands of comments renders in milliseconds
// instead of seconds (measured in scripts/bench.ts). Every value that is not already-sanitized
// body HTML is escaped here.
import type { RenderedComment } from "./comment-tree.ts";
import { escapeHtml } from "./sanitize.ts";

export type DateFormatter = (createdAt: string) => string;

/** created_at as an HTML datetime value: HTML allows at most three fractional digits, the API sends six. */
export function machineDate(createdAt: string): string {
  return new Date(createdAt).toISOString();
}

function commentHtml(comment: RenderedComment, formatDate: DateFormatter): string {
  const replies = !("replies" in comment) || comment.replies.length === 0
    ? ""
    : `<ol class="astro-comments__replies" data-comment-replies aria-label="Replies">${commentItemsHtml(comment.replies, formatDate)}</ol>`;
  return (
    `<article class="astro-comments__comment" data-comment>` +
    `<header class="astro-comments__meta"><span class="astro-comments__author" data-comment-author>${escapeHtml(comment.author)}</span> ` +
    `<time class="astro-comments__time" datetime="${machineDate(comment.createdAt)}">${escapeHtml(formatDate(comment.createdAt))}</time></header>` +
    `<div class="astro-comments__body" data-comment-body>${comment.html}</div>${replies}</article>`
  );
}

/** `<li>` items, one per comment, each holding its article (and its replies inside it). */
export function commentItemsHtml(comments: readonly RenderedComment[], formatDate: DateFormatter): string {
  let html = "";
  for (const comment of comments) html += `<li class="astro-comments__item">${commentHtml(comment, formatDate)}</li>`;
  return html;
}

// Turns the API's threads into what pages render: grouped by page key, bodies made safe,
// replies nested under their comment, counts ready. Pure: no I/O.
import type { CommentReply, CommentThread } from "@astro-comments/schema";
import { pathKey } from "./path-key.ts";
import { renderCommentBody } from "./render-body.ts";

/** A comment as components render it. `html` is sanitized and highlighted; `author` is plain text. */
export interface RenderedComment {
  author: string;
  /** created_at as the API sent it (UTC, microseconds). */
  createdAt: string;
  html: string;
  /** The path the service stored the comment under. */
  path: string;
  replies: RenderedComment[];
}

export interface PageComments {
  /** Approved comments on the page, replies included. */
  count: number;
  comments: RenderedComment[];
}

export type CommentOrder = "oldest-first" | "newest-first";

export interface CommentsByPage {
  pages: Map<string, PageComments>;
  topLevel: number;
  replies: number;
  unknownLanguages: Set<string>;
}

export function buildCommentTree(threads: readonly CommentThread[], order: CommentOrder = "oldest-first"): CommentsByPage {
  const pages = new Map<string, PageComments>();
  const unknownLanguages = new Set<string>();
  let replies = 0;
  const render = (comment: CommentThread | CommentReply, nested: RenderedComment[]): RenderedComment => {
    const body = renderCommentBody(comment.html, comment.content);
    body.unknownLanguages.forEach((language) => unknownLanguages.add(language));
    return { author: comment.name, createdAt: comment.created_at, html: body.html, path: comment.path, replies: nested };
  };
  for (const thread of threads) {
    const children = thread.children.map((reply) => render(reply, []));
    replies += children.length;
    const key = pathKey(thread.path);
    const page = pages.get(key) ?? { count: 0, comments: [] };
    page.comments.push(render(thread, children));
    page.count += 1 + children.length;
    pages.set(key, page);
  }
  // Threads arrive oldest first; comments stored under two spellings of one path interleave by time.
  const byTime = (a: RenderedComment, b: RenderedComment) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0);
  for (const page of pages.values()) {
    page.comments.sort(byTime);
    if (order === "newest-first") page.comments.reverse();
  }
  return { pages, topLevel: threads.length, replies, unknownLanguages };
}

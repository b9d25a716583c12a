// Turns the API's threads into what pages render: grouped by page key, bodies made safe,
// replies nested under their comment, counts ready. Pure: no I/O.
import type { CommentReply, CommentThread } from "@astro-comments/schema";
import { pathKey } from "./path-key.ts";
import { renderCommentBody } from "./render-body.ts";
import type { BodyRenderer } from "./render-cache.ts";

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
}

/** Renders one thread (body sanitized and highlighted, replies nested); unknown fence languages are reported. */
export function renderThread(thread: CommentThread, unknownLanguages?: Set<string>, renderBody: BodyRenderer = renderCommentBody): RenderedComment {
  const render = (comment: CommentThread | CommentReply, nested: RenderedComment[]): RenderedComment => {
    const body = renderBody(comment.html, comment.content);
    body.unknownLanguages.forEach((language) => unknownLanguages?.add(language));
    return { author: comment.name, createdAt: comment.created_at, html: body.html, path: comment.path, replies: nested };
  };
  return render(thread, thread.children.map((reply) => render(reply, [])));
}

/** Groups rendered threads by page key and orders each page. */
export function groupByPage(rendered: readonly RenderedComment[], order: CommentOrder = "oldest-first"): CommentsByPage {
  const pages = new Map<string, PageComments>();
  let replies = 0;
  for (const comment of rendered) {
    replies += comment.replies.length;
    const key = pathKey(comment.path);
    const page = pages.get(key) ?? { count: 0, comments: [] };
    page.comments.push(comment);
    page.count += 1 + comment.replies.length;
    pages.set(key, page);
  }
  // Threads arrive oldest first; comments stored under two spellings of one path interleave by time.
  const byTime = (a: RenderedComment, b: RenderedComment) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0);
  for (const page of pages.values()) {
    page.comments.sort(byTime);
    if (order === "newest-first") page.comments.reverse();
  }
  return { pages, topLevel: rendered.length, replies };
}

// Anchors for comments that survive new approvals. An id made from a comment's position would
// point at a different comment as soon as an earlier one is approved; one made from what the
// comment is (when, who, where, what) keeps pointing at the same comment for good.
import type { StoredComment } from "../loader/entry-schema.ts";

/** The fields that make a comment what it is, as the service sent them. */
export interface CommentIdentity {
  createdAt: string;
  author: string;
  path: string;
  content: string;
}

const FNV_PRIME = 0x01000193;

// 32-bit FNV-1a over UTF-8: tiny, pure JavaScript (so it runs in every runtime Astro renders in)
// and fixed forever, which is what a permalink needs. Uniqueness on a page is ensured by the
// allocator below, not by the hash. The bytes are TextEncoder's (a lone surrogate is U+FFFD),
// written into one reused array: a new array per comment cost a cold build of 53,000 comments a
// third of a second, and encoding in JavaScript a character at a time twice what this costs.
const encoder = new TextEncoder();
let bytes = new Uint8Array(4_096);

function fnv1a(text: string): number {
  // UTF-8 takes at most 3 bytes per UTF-16 code unit. A huge comment gets an array of its own, not kept.
  const needed = text.length * 3;
  if (needed > bytes.length && needed <= 1_048_576) bytes = new Uint8Array(needed);
  const target = needed > bytes.length ? new Uint8Array(needed) : bytes;
  const { written } = encoder.encodeInto(text, target);
  let hash = 0x811c9dc5;
  for (let i = 0; i < written; i++) hash = Math.imul(hash ^ target[i]!, FNV_PRIME);
  return hash >>> 0;
}

/** The HTML id of a comment: "comment-" and 8 hex digits of a hash of its identity. */
export function commentIdentity(comment: CommentIdentity): string {
  // NUL never occurs in the fields, so they cannot run into each other.
  const text = [comment.createdAt, comment.author, comment.path, comment.content].join("\u0000");
  return `comment-${fnv1a(text).toString(16).padStart(8, "0")}`;
}

/**
 * Hands out the ids of one page in its stable order: identical twins (and the rare hash collision)
 * get "-2", "-3", … in that order, so every id on the page is unique.
 */
export function commentIdAllocator(): (comment: CommentIdentity) => string {
  const seen = new Map<string, number>();
  return (comment) => {
    const id = commentIdentity(comment);
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    return n === 1 ? id : `${id}-${n}`;
  };
}

/**
 * Comments as stored by a version without ids (in a data store or a last-good copy, until the page
 * is synced again) get ids from what was stored: the sanitized body stands in for the plain text,
 * which was not kept. Comments that have ids are returned as they are.
 */
export function withMissingIds(comments: StoredComment[]): StoredComment[] {
  if (comments.every((comment) => typeof comment.id === "string")) return comments;
  const nextId = commentIdAllocator();
  const id = (comment: Omit<StoredComment, "id" | "replies">) => nextId({ ...comment, content: comment.html });
  return comments.map((comment) => ({
    ...comment,
    id: id(comment),
    replies: comment.replies.map((reply) => ({ ...reply, id: id(reply) })),
  }));
}

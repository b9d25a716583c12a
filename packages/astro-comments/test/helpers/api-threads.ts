// Threads as the API serves them, for unit tests of what is made from a crawl (states, digests).
import type { CommentReply, CommentThread } from "../../src/api/generated/api-types.ts";

/** A timestamp of 2026-01-01 in the service's format, `second` seconds after midnight (0–59). */
export const at = (second: number) => `2026-01-01T00:00:${String(second).padStart(2, "0")}.000000Z`;

export const reply = (path: string, name: string, second = 0): CommentReply => ({
  path,
  name,
  created_at: at(second),
  content: `${name} replies`,
  html: `<p>${name} replies</p>\n`,
  status: "approved",
});

export const thread = (path: string, name: string, second = 0, children: CommentReply[] = []): CommentThread => ({
  ...reply(path, name, second),
  content: `${name} says`,
  html: `<p>${name} says</p>\n`,
  children,
});

// The shape of one page's entry in the comments collection. It types `getCollection("comments")`
// for users and for the components; the loader writes exactly this.
import { z } from "astro/zod";

const commentFields = {
  /**
   * The comment's HTML id ("comment-" and a hash of when, who, where and what, "-2", "-3" for
   * identical twins): stable across new approvals, so `#comment-…` links keep their comment.
   */
  id: z.string(),
  /** The commenter's display name, as plain text. */
  author: z.string(),
  /** When it was written, as the API sent it (ISO 8601, UTC). */
  createdAt: z.string(),
  /** The body: sanitized HTML with PrismJS-highlighted code blocks. */
  html: z.string(),
  /** The path the service stored the comment under (any spelling of the page's path). */
  path: z.string(),
};

export const replySchema = z.object(commentFields);
export const commentSchema = z.object({ ...commentFields, replies: z.array(replySchema) });

export const pageCommentsSchema = z.object({
  /** The page key the comments belong to (see pathKey). */
  path: z.string(),
  /** Approved comments on the page, replies included. */
  count: z.number(),
  /** Top-level comments, oldest first, with their replies oldest first. */
  comments: z.array(commentSchema),
});

export type StoredReply = z.infer<typeof replySchema>;
export type StoredComment = z.infer<typeof commentSchema>;
export type PageCommentsData = z.infer<typeof pageCommentsSchema>;

// The shapes of one page's comments: the collection's entry data (what `getCollection("comments")`
// returns, kept small because Astro handles its whole store on every build) and the full data the
// page's content module holds (what `getComments()` and the live loader return).
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

const replySchema = z.object(commentFields);
const commentSchema = z.object({ ...commentFields, replies: z.array(replySchema) });

const pageFields = {
  /** The page key the comments belong to (see pathKey). */
  path: z.string(),
  /** Approved comments on the page, replies included. */
  count: z.number(),
};

/** A page's entry in the comments collection; `render(entry)` loads its comments. */
export const pageEntrySchema = z.object(pageFields);

const pageCommentsSchema = z.object({
  ...pageFields,
  /** Top-level comments, oldest first, with their replies oldest first. */
  comments: z.array(commentSchema),
});

export type StoredReply = z.infer<typeof replySchema>;
export type StoredComment = z.infer<typeof commentSchema>;
export type PageCommentsData = z.infer<typeof pageCommentsSchema>;
export type PageEntryData = z.infer<typeof pageEntrySchema>;

/* eslint-disable */
/**
 * Generated from schema/json/*.schema.json by json-schema-to-typescript.
 * Do not edit: change the schema and run `npm run generate`.
 */

/**
 * When the comment was created: ISO 8601 in UTC with exactly six fractional digits and a trailing Z, as Carbon's toJSON() writes it (e.g. 2023-11-26T06:30:07.000000Z).
 */
export type CreatedAt = string;
/**
 * Moderation status. The list endpoint only ever returns approved comments.
 */
export type CommentStatus = "approved";
/**
 * An absolute URL of a page of the list. Laravel drops every query parameter but page by default, so it is not safe to follow as is: it loses domain.
 */
export type PageUrl = string;

/**
 * Entry point for type generation only: every named shape of the API, once.
 */
export interface CommentsApiSchemas {
  [k: string]: unknown | undefined;
}
/**
 * Body of a 200 from GET /api/comments: one page of approved top-level comments with their replies.
 *
 * This interface was referenced by `CommentsApiSchemas`'s JSON-Schema
 * via the `definition` "CommentListResponse".
 */
export interface CommentListResponse {
  data: CommentThread[];
  links: PaginationLinks;
  meta: PaginationMeta;
}
/**
 * A top-level comment with its replies nested in children. Replies do not count toward per_page.
 *
 * This interface was referenced by `CommentsApiSchemas`'s JSON-Schema
 * via the `definition` "CommentThread".
 */
export interface CommentThread {
  created_at: CreatedAt;
  /**
   * The comment text in its plain (Markdown source) form.
   */
  content: string;
  /**
   * The comment rendered as HTML by the service. Untrusted: it is what a stranger typed. May end in a newline; may be empty.
   */
  html: string;
  status: CommentStatus;
  /**
   * Display name of the commenter. Untrusted text, never markup.
   */
  name: string;
  /**
   * Path of the page the comment belongs to, as the site reported it (e.g. /posts/my-post).
   */
  path: string;
  /**
   * The replies to this comment, oldest first.
   */
  children: CommentReply[];
}
/**
 * A reply to a top-level comment. Same fields as a top-level comment; replies never carry children (threads are one level deep).
 *
 * This interface was referenced by `CommentsApiSchemas`'s JSON-Schema
 * via the `definition` "CommentReply".
 */
export interface CommentReply {
  created_at: CreatedAt;
  /**
   * The comment text in its plain (Markdown source) form.
   */
  content: string;
  /**
   * The comment rendered as HTML by the service. Untrusted: it is what a stranger typed. May end in a newline; may be empty.
   */
  html: string;
  status: CommentStatus;
  /**
   * Display name of the commenter. Untrusted text, never markup.
   */
  name: string;
  /**
   * Path of the page the comment belongs to, as the site reported it (e.g. /posts/my-post).
   */
  path: string;
  children?: never;
}
/**
 * This interface was referenced by `CommentsApiSchemas`'s JSON-Schema
 * via the `definition` "PaginationLinks".
 */
export interface PaginationLinks {
  first: PageUrl;
  last: PageUrl;
  /**
   * null on page 1.
   */
  prev: PageUrl | null;
  /**
   * null on the last page and past it.
   */
  next: PageUrl | null;
}
/**
 * This interface was referenced by `CommentsApiSchemas`'s JSON-Schema
 * via the `definition` "PaginationMeta".
 */
export interface PaginationMeta {
  /**
   * The page served. Not clamped: a page past last_page is echoed back with empty data.
   */
  current_page: number;
  /**
   * Ordinal of the first item on this page; null when the page is empty.
   */
  from: number | null;
  /**
   * max(ceil(total / per_page), 1): never 0.
   */
  last_page: number;
  /**
   * @minItems 3
   */
  links?: PaginationMetaLink[];
  /**
   * The endpoint URL without query string.
   */
  path?: string;
  /**
   * Top-level comments per page actually in effect (the server may cap the requested value).
   */
  per_page: number;
  /**
   * Ordinal of the last item on this page; null when the page is empty.
   */
  to: number | null;
  /**
   * Number of approved top-level comments matching the query (replies not counted).
   */
  total: number;
}
/**
 * One entry of Laravel's page-link window: Previous, a page number, an ellipsis ("...", no page key) or Next. Labels are HTML entities kept as text ("&laquo; Previous").
 *
 * This interface was referenced by `CommentsApiSchemas`'s JSON-Schema
 * via the `definition` "PaginationMetaLink".
 */
export interface PaginationMetaLink {
  url: PageUrl | null;
  label: string;
  /**
   * Laravel 12.23 and later; absent on ellipsis entries and on older servers.
   */
  page?: number | null;
  active: boolean;
}
/**
 * Query parameters of GET /api/comments, as a client should send them.
 *
 * This interface was referenced by `CommentsApiSchemas`'s JSON-Schema
 * via the `definition` "ListCommentsQuery".
 */
export interface ListCommentsQuery {
  /**
   * Domain of the site, as configured in the account. Not blank: Laravel trims the query's strings (TrimStrings) and turns an empty one into null, so a domain of spaces alone is missing (422).
   */
  domain: string;
  /**
   * Only the comments of this page path. Empty or omitted: every comment of the domain.
   */
  path?: string;
  /**
   * Top-level comments per page (default 50). The server may cap it; read meta.per_page. At most 2^63 - 1 (PHP_INT_MAX): Laravel's integer rule refuses a larger number (422). A parser that reads JSON numbers as doubles rounds that maximum up to 2^63, so the bound is also stated as the exclusive 2^63, which every parser reads exactly. A service may validate a lower maximum (a Laravel 8 app with max:100 answers 422 above it): a client asking for more than 100 must be ready to ask again for fewer.
   */
  per_page?: number;
  /**
   * Page number. The server never rejects it: anything that is not a positive decimal integer without leading zeros means page 1.
   */
  page?: string;
}
/**
 * 401 "Unauthenticated.", 403 "This action is unauthorized.", 404 "The route ... could not be found.", 429 "Too Many Attempts.", 500 "Server Error", 503 "Service Unavailable".
 *
 * This interface was referenced by `CommentsApiSchemas`'s JSON-Schema
 * via the `definition` "MessageError".
 */
export interface MessageError {
  message: string;
}
/**
 * 422: message is the first error, plus "(and N more errors)" when there are more; errors maps each field to its messages.
 *
 * This interface was referenced by `CommentsApiSchemas`'s JSON-Schema
 * via the `definition` "ValidationError".
 */
export interface ValidationError {
  message: string;
  errors: {
    /**
     * @minItems 1
     */
    [k: string]: string[] | undefined;
  };
}

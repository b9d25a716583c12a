import "./node-version.ts";
export { default, INTEGRATION_NAME } from "./integration.ts";
export type { CommentsOptions, CommentsDateFormat, CommentOrder } from "./options.ts";
export type { PageCommentsData, StoredComment, StoredReply } from "./entry-schema.ts";
export type { FetchStatus } from "./fetch-status.ts";
export { CommentsApiError, CommentsConfigError, type CommentsApiFailure } from "./errors.ts";

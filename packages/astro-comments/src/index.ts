import "./utils/node-version.ts";
export { default } from "./integration/hooks.ts";
export { INTEGRATION_NAME } from "./constants.ts";
export type { CommentsOptions, CommentsDateFormat, CommentOrder } from "./integration/options.ts";
export type { PageCommentsData, StoredComment, StoredReply } from "./loader/entry-schema.ts";
export type { FetchStatus } from "./loader/fetch-status.ts";
export { CommentsApiError, CommentsConfigError, type CommentsApiFailure } from "./errors.ts";

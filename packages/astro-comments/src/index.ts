export { default, INTEGRATION_NAME } from "./integration.ts";
export type { CommentsOptions, CommentsDateFormat } from "./options.ts";
export type { PageComments, RenderedComment, CommentOrder } from "./render/comment-tree.ts";
export { CommentsApiError, CommentsConfigError, type CommentsApiFailure } from "./errors.ts";

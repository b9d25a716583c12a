export { default as Comments } from "./Comments.astro";
export { default as CommentCount } from "./CommentCount.astro";
export { default as CommentsJsonLd } from "./CommentsJsonLd.astro";

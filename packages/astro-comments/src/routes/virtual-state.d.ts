declare module "virtual:astro-comments/state" {
  const state: import("../freshness/comments-state.ts").CommentsState;
  export default state;
}

// Apart from ./index.ts on purpose: Astro stops the build of a site without an adapter as soon as
// it compiles a component holding server:defer, so only a site that uses the island imports it.
export { default as CommentsIsland } from "./CommentsIsland.astro";

// The state route (feeds.state), prerendered: digests and counts of the comments this build shows,
// for `npx astro-comments check` to compare with the service before the next build. No comment
// text, no token.
import type { APIRoute } from "astro";
import state from "virtual:astro-comments/state";

export const prerender = true;

export const GET: APIRoute = () =>
  new Response(`${JSON.stringify(state, null, 2)}\n`, {
    headers: { "content-type": "application/json; charset=utf-8" },
  });

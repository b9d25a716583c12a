// Each split post's moved-links file (pages.movedLinks), prerendered beside its comment pages:
// page URL → the ids of the comments on it, for the inline script render/moved-links.ts writes.
import type { APIRoute, GetStaticPaths } from "astro";
import { movedLinksRoutes } from "../data.ts";

export const prerender = true;

export const getStaticPaths = movedLinksRoutes satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response(JSON.stringify((props as { pages: Record<string, string[]> }).pages), {
    headers: { "content-type": "application/json; charset=utf-8" },
  });

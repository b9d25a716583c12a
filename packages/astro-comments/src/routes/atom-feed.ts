// The Atom feed route (feeds.atom), prerendered: the site's latest comments from the collection.
import type { APIRoute } from "astro";
import settings from "virtual:astro-comments/feeds";
import { buildAtomFeed, feedComments } from "../render/atom-feed.ts";
import { getAllComments } from "../runtime/data.ts";

export const prerender = true;

export const GET: APIRoute = async () => {
  const pages = await getAllComments();
  const comments = feedComments([...pages].map(([id, data]) => ({ id, data })));
  const body = await buildAtomFeed({ ...settings, comments });
  return new Response(body, { headers: { "content-type": "application/atom+xml; charset=utf-8" } });
};

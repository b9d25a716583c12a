// The Atom feed route (feeds.atom), prerendered: the site's latest comments from the collection.
// A build renders every comment here, because which pages it builds is known only afterwards:
// finish-feeds.ts then drops the comments no built page shows and keeps `limit`. The dev server
// cannot know either and serves the latest `limit`.
import type { APIRoute } from "astro";
import settings from "virtual:astro-comments/feeds";
import { buildAtomFeed, feedComments } from "./atom-xml.ts";
import { commentLinks, getAllComments } from "../data.ts";

export const prerender = true;

export const GET: APIRoute = async () => {
  const pages = await getAllComments();
  const comments = feedComments(
    [...pages].map(([id, data]) => ({ id, data })),
    commentLinks,
  );
  const limit = import.meta.env.DEV ? settings.limit : Number.POSITIVE_INFINITY;
  const body = await buildAtomFeed({ ...settings, limit, comments });
  return new Response(body, { headers: { "content-type": "application/atom+xml; charset=utf-8" } });
};

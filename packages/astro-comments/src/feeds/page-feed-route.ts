// The per-page Atom feeds (feeds.pageAtom), prerendered: one for every page with comments. Those
// of paths no built page shows are removed after the build (finish-feeds.ts).
import type { APIRoute, GetStaticPaths } from "astro";
import settings from "virtual:astro-comments/feeds";
import type { PageCommentsData } from "../loader/entry-schema.ts";
import { buildAtomFeed, feedComments } from "./atom-xml.ts";
import { commentLinks, getAllComments } from "../data.ts";
import { pageFeedParam, pageFeedUrl } from "./feed-settings.ts";

export const prerender = true;

export const getStaticPaths = (async () => {
  const pages = await getAllComments();
  return [...pages].map(([key, data]) => ({
    params: { page: pageFeedParam(key, settings.base) },
    props: { key, data },
  }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params, props }) => {
  const { key, data } = props as { key: string; data: PageCommentsData };
  const comments = feedComments([{ id: key, data }], commentLinks);
  const body = await buildAtomFeed({
    ...settings,
    title: `${settings.title}: ${key}`,
    selfUrl: pageFeedUrl(settings, params.page!),
    comments,
  });
  return new Response(body, { headers: { "content-type": "application/atom+xml; charset=utf-8" } });
};

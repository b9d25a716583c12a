// The counts route (feeds.counts), prerendered: page key → approved comments, for pages built
// earlier or elsewhere that show counts.
import type { APIRoute } from "astro";
import { commentCounts } from "./atom-xml.ts";
import { getAllCommentCounts } from "../data.ts";

export const prerender = true;

export const GET: APIRoute = async () => {
  const body = JSON.stringify(commentCounts(await getAllCommentCounts()), null, 2);
  return new Response(`${body}\n`, { headers: { "content-type": "application/json; charset=utf-8" } });
};

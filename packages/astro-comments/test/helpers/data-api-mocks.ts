// What the data API (src/data.ts) reads, for tests that mock astro:content and its virtual config.
import type { PageCommentsData } from "../../src/loader/entry-schema.ts";
import type { PagesSettings } from "../../src/render/comment-pages.ts";

/** The collection's entries of these pages, as getCollection hands them over: one shard holds them all. */
export const collectionEntries = (pages: Record<string, PageCommentsData>) =>
  Object.entries(pages).map(([id, data]) => ({
    id,
    collection: "comments",
    digest: `digest-of-${id}`,
    filePath: "shard-0",
    data: { path: data.path, count: data.count },
  }));

/** virtual:astro-comments/config with the integration's defaults and these comment pages. */
export async function configModule(pages: PagesSettings) {
  const { resolveOptions } = await import("../../src/integration/options.ts");
  const options = resolveOptions({}, {}, { requireCredentials: false });
  return { default: { ...options, collection: "comments", pages } };
}

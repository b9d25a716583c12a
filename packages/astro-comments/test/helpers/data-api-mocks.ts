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

/** astro:content for these pages: their entries, and one shard whose module holds them all. */
export const contentModule = (pages: Record<string, PageCommentsData>) => ({
  getCollection: async () => collectionEntries(pages),
  render: async () => ({ remarkPluginFrontmatter: structuredClone(pages) }),
});

/** Comment pages of 10 comments under `base`, as the integration's defaults make them. */
export const commentPagesUnder = (base: string): PagesSettings => ({
  size: 10,
  route: "/comments",
  base,
  trailingSlash: true,
  movedLinks: false,
});

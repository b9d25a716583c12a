// The content-layer loader: `comments: defineCollection({ loader: commentsLoader() })` in
// src/content.config.ts. It takes its settings from the comments() integration.
import type { Loader } from "astro/loaders";
import { LOADER_NAME } from "./constants.ts";
import { pageEntrySchema } from "./loader/entry-schema.ts";
// Nothing that fetches or renders: pages bundle this module whenever they import content.config.ts
// (for a constant, say), so the work is the integration's (see SiteHandoff.sync).
import { siteHandoff } from "./site-registry.ts";

/**
 * The loader's type, declared rather than inferred: an inferred declaration spells the schema with
 * the zod this package is built against (Astro 7's zod 4), which Astro 5's Loader (zod 3) rejects.
 * `typeof pageEntrySchema` is resolved through the site's own `astro/zod` instead, so
 * `getCollection("comments")` is typed on every supported Astro.
 */
export interface CommentsLoader {
  name: string;
  schema: typeof pageEntrySchema;
  load: Loader["load"];
}

/**
 * One entry per page with comments: its id is the page key (see `pathKey`), its data the page's
 * path and count, its digest changes only when its comments do. The comments themselves
 * (sanitized, highlighted) are the entry's content module: `render(entry)` loads them, and
 * `getComments()` from "astro-comments/data" does it for you.
 *
 * @example
 * // src/content.config.ts
 * import { defineCollection } from "astro:content";
 * import { commentsLoader } from "astro-comments/loader";
 * export const collections = { comments: defineCollection({ loader: commentsLoader() }) };
 */
export function commentsLoader(): CommentsLoader {
  return {
    name: LOADER_NAME,
    schema: pageEntrySchema,
    load: async (context) => {
      const site = siteHandoff(context.config.root);
      if (site?.sync === undefined) {
        // Imported here, not at the top: the error classes and the catalogue of every error's
        // wording would otherwise ride along into each page that imports content.config.ts.
        const [{ configError }, { LoaderWithoutIntegration }] = await Promise.all([
          import("./errors.ts"),
          import("./errors-data.ts"),
        ]);
        throw configError(LoaderWithoutIntegration);
      }
      await site.sync(context);
    },
  } satisfies Loader;
}

// The blog's `posts` collection, the same in every variant of the bench site: the JSON file that
// bench/run.ts writes next to this module (bench/dataset.ts), one entry per page.
import { file } from "astro/loaders";
import { z } from "astro/zod";

export const postsCollection = {
  // Relative to the variant's root (bench/site/<variant>).
  loader: file("../shared/posts.json"),
  schema: z.object({ path: z.string(), title: z.string(), date: z.coerce.date(), paragraphs: z.array(z.string()) }),
};

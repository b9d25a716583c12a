import { defineCollection } from "astro:content";
import { glob } from "astro/loaders";
import { z } from "astro/zod";
import { commentsLoader } from "astro-comments/loader";

const posts = defineCollection({
  loader: glob({ pattern: "*.md", base: "./src/content/posts" }),
  schema: z.object({ title: z.string(), date: z.coerce.date(), summary: z.string() }),
});

// One entry per page with comments, fetched by the comments() integration's settings.
const comments = defineCollection({ loader: commentsLoader() });

export const collections = { posts, comments };

import { defineCollection } from "astro:content";
import { crawlOnlyLoader } from "../../shared/crawl-only.ts";
import { postsCollection } from "../../shared/posts.ts";

export const collections = {
  posts: defineCollection(postsCollection),
  comments: defineCollection({ loader: crawlOnlyLoader() }),
};

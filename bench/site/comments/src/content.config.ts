import { defineCollection } from "astro:content";
import { commentsLoader } from "astro-comments/loader";
import { postsCollection } from "../../shared/posts.ts";

export const collections = {
  posts: defineCollection(postsCollection),
  comments: defineCollection({ loader: commentsLoader() }),
};

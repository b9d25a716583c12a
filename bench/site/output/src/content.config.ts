import { defineCollection } from "astro:content";
import { postsCollection } from "../../shared/posts.ts";

export const collections = { posts: defineCollection(postsCollection) };

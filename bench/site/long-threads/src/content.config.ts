import { defineCollection } from "astro:content";
import { commentsLoader } from "astro-comments/loader";

export const collections = { comments: defineCollection({ loader: commentsLoader() }) };

// The bench blog with comments: the integration with its default options, Astro's defaults.
// COMMENTS_DOMAIN, COMMENTS_API_URL and COMMENTS_API_TOKEN come from bench/run.ts.
import { defineConfig } from "astro/config";
import comments from "astro-comments";

export default defineConfig({ integrations: [comments()] });

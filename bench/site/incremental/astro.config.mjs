// The bench blog with comments and Astro's incremental builds (experimental.incrementalBuild):
// pages whose cacheKey (src/pages) did not change are restored, not rendered.
import { defineConfig } from "astro/config";
import comments from "astro-comments";

export default defineConfig({ experimental: { incrementalBuild: true }, integrations: [comments()] });

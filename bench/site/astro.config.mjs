// The benchmark's 2,000-page site. BENCH_COMMENTS=1 builds it with astro-comments (src-with),
// anything else without (src-without); the pages are otherwise the same.
import { defineConfig } from "astro/config";
import comments from "astro-comments";

const withComments = process.env.BENCH_COMMENTS === "1";
const variant = withComments ? "with" : "without";
export default defineConfig({
  srcDir: `./src-${variant}`,
  // The variant with comments keeps Astro's default cacheDir (node_modules/.astro: its data store,
  // the loader's last-good copy, the incremental-build cache), which a cold run deletes. The
  // comment-free variant and Vite's dependency cache get one directory per variant, so that
  // alternating the two in one run never invalidates the other's caches.
  cacheDir: withComments ? "./node_modules/.astro" : "./node_modules/.astro-without",
  vite: { cacheDir: `node_modules/.vite-${variant}` },
  // BENCH_INCREMENTAL=1 turns on Astro 7.2's incremental builds, which skip pages whose cacheKey
  // (src-with/pages) is unchanged; otherwise Astro's defaults, like the comment-free variant.
  experimental: { incrementalBuild: withComments && process.env.BENCH_INCREMENTAL === "1" },
  // BENCH_CONCURRENCY sets the crawl's concurrency; unset, the loader's default (6) applies.
  integrations: withComments ? [comments(process.env.BENCH_CONCURRENCY ? { concurrency: Number(process.env.BENCH_CONCURRENCY) } : {})] : [],
});

// The benchmark's 2,000-page site. BENCH_COMMENTS=1 builds it with astro-comments (src-with),
// anything else without (src-without); the pages are otherwise the same.
import { defineConfig } from "astro/config";
import comments from "astro-comments";

const withComments = process.env.BENCH_COMMENTS === "1";
export default defineConfig({
  srcDir: withComments ? "./src-with" : "./src-without",
  integrations: withComments ? [comments({ concurrency: Number(process.env.BENCH_CONCURRENCY ?? 16) })] : [],
});

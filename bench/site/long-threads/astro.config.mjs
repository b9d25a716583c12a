// The long-threads bench site (bench/long-threads.ts): the integration's defaults, or with
// BENCH_PAGES=off every comment on its post as before comment pages. COMMENTS_* come from the bench;
// the timeout leaves room for the 200,000-reply answer on a busy machine.
import { defineConfig } from "astro/config";
import comments from "astro-comments";

const pages = process.env.BENCH_PAGES === "off" ? { pages: /** @type {const} */ (false) } : {};
export default defineConfig({ integrations: [comments({ timeout: 120_000, ...pages })] });

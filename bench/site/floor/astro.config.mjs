// The floor: the bench blog's pages without comments, plus the package's crawl of every comment,
// started and awaited as the integration would (../shared/crawl-only.ts).
import { defineConfig } from "astro/config";
import { crawlOnlyIntegration } from "../shared/crawl-only.ts";

export default defineConfig({ integrations: [crawlOnlyIntegration()] });

// The example site as the rebuild-on-change guide sets it up: publishing its freshness state, which
// `astro-comments check` compares against.

/** The example site's astro.config.mjs with `feeds.state` on; small pages, so a crawl has several. */
export const stateSiteConfig = `import { defineConfig } from "astro/config";
import comments from "astro-comments";

export default defineConfig({
  site: "https://example.com",
  integrations: [comments({ perPage: 25, orphans: "ignore", feeds: { state: "/comments/state.json" } })],
});
`;

// @ts-check
import { defineConfig } from "astro/config";
import comments from "astro-comments";

// domain, apiUrl and apiToken come from COMMENTS_DOMAIN, COMMENTS_API_URL and COMMENTS_API_TOKEN
// (environment or .env). `npm start` at the repository root sets them to a local mock.
export default defineConfig({
  site: "https://example.com",
  // Astro 7.2+: pages whose cacheKey did not change are restored instead of rendered (see the
  // cacheKey in src/pages/posts/[slug].astro, which includes the post's comments).
  experimental: { incrementalBuild: true },
  integrations: [
    comments({
      injectStyles: true,
      // When a build falls back to the last good comments, say how old they are.
      staleNotice: true,
      dateFormat: { locale: "en-GB", timeZone: "UTC", dateStyle: "medium", timeStyle: "short" },
      // The mock serves comments for a larger site (/guides/…, /notes/…) than this example builds;
      // a real site keeps the default "warn" to hear about comments no page shows.
      orphans: "ignore",
      // Comment pages hold 100 comments by default (docs/long-threads.md); here 200, so the XSS
      // corpus (125 comments) stays on one page, where the browser test provokes every vector at once.
      pages: { size: 200 },
    }),
  ],
});

// @ts-check
import { defineConfig } from "astro/config";
import comments from "astro-comments";

// domain, apiUrl and apiToken come from COMMENTS_DOMAIN, COMMENTS_API_URL and COMMENTS_API_TOKEN
// (environment or .env). `npm start` at the repository root sets them to a local mock.
export default defineConfig({
  site: "https://example.com",
  integrations: [
    comments({
      injectStyles: true,
      dateFormat: { locale: "en-GB", timeZone: "UTC", dateStyle: "medium", timeStyle: "short" },
    }),
  ],
});

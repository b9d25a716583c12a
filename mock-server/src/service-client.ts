// astro-comments' own client (retries, the crawl-wide rate-limit gate, per_page fallback and the
// tolerant contract check), for `record` and `verify`: they crawl the real service exactly as a
// build does. scripts/build.ts bundles it into dist, so the published mock does not depend on
// astro-comments (nor, through its peer dependency, on Astro).
export { CommentsApiError } from "../../packages/astro-comments/src/api/api-error.ts";
export { collectThreads } from "../../packages/astro-comments/src/api/crawl.ts";
export {
  crawlComments,
  crawlDefaults,
  type CrawlLogger,
} from "../../packages/astro-comments/src/api/crawl-comments.ts";
export { credentialsFromEnv, type Credentials } from "../../packages/astro-comments/src/api/credentials.ts";
export { readCommentsEnv } from "../../packages/astro-comments/src/cli/read-env.ts";
export { isDecimalString, metaNumbers } from "../../packages/astro-comments/src/api/http-client.ts";
export { escapeControlCharacters } from "../../packages/astro-comments/src/api/service-text.ts";

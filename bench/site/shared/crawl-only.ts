// The floor variant's comments: the package's own crawl (the client, defaults and page size every
// build uses), started while Astro sets up as the integration starts its own, and awaited by a
// loader that stores nothing. A build of this variant is Astro, the content layer and the crawl:
// what comments cost before anything is grouped, sanitized, stored or rendered.
import type { AstroIntegration } from "astro";
import type { Loader } from "astro/loaders";
import { collectThreads } from "../../../packages/astro-comments/src/api/crawl.ts";
import {
  crawlComments,
  crawlDefaults,
  type CrawlLogger,
  type CrawlSummary,
} from "../../../packages/astro-comments/src/api/crawl-comments.ts";
import { credentialsFromEnv } from "../../../packages/astro-comments/src/api/credentials.ts";
import type { CommentThread } from "../../../packages/astro-comments/src/api/generated/api-types.ts";
import { undiciTransport } from "../../../packages/astro-comments/src/api/undici-transport.ts";

type Crawl = Promise<{ result: CommentThread[]; summary: CrawlSummary }>;

// astro.config is loaded by Node and content.config.ts by Vite: two instances of this module, one globalThis.
const key = Symbol.for("astro-comments-bench.crawl");
const scope = globalThis as { [key]?: Crawl };

const crawl = (logger: CrawlLogger): Crawl =>
  crawlComments(credentialsFromEnv(process.env), crawlDefaults, logger, collectThreads, { transport: undiciTransport });

/** Starts the crawl when a build sets up, as the comments() integration does. */
export function crawlOnlyIntegration(): AstroIntegration {
  return {
    name: "bench-crawl-only",
    hooks: {
      "astro:config:setup": ({ command, logger }) => {
        if (command === "build") scope[key] = crawl(logger);
      },
    },
  };
}

/** Waits for the crawl, logs what it fetched, and stores nothing. */
export function crawlOnlyLoader(): Loader {
  return {
    name: "bench-crawl-only",
    load: async ({ logger }) => {
      const { result, summary } = await (scope[key] ?? crawl(logger));
      const replies = result.reduce((sum, thread) => sum + thread.children.length, 0);
      logger.info(
        `crawled ${result.length} comments and ${replies} replies and kept none (${summary.seconds.toFixed(1)} s, ${summary.requests} requests)`,
      );
    },
  };
}

// One page's comments as the API has them now, fetched while a request waits: shared by the live
// loader (on-demand pages) and the server island (prerendered pages). Imports nothing from Astro
// at run time.
import { collectThreads } from "../api/crawl.ts";
import { crawlComments, type CrawlLogger } from "../api/crawl-comments.ts";
import type { CommentThread } from "../api/generated/api-types.ts";
import { envNames } from "../api/credentials.ts";
import { pathEndpoint, storedSpellings } from "../api/path-query.ts";
import {
  resolveOptions,
  type CommentsOptions,
  type Credentials,
  type ResolvedOptions,
} from "../integration/options.ts";
import { pathKey } from "../render/path-key.ts";
import { onlySite } from "../site-registry.ts";

export type LiveSettings = ResolvedOptions & { credentials: Credentials };
type CrawlOptions = Parameters<typeof crawlComments>[1];

// A request has no logger: what it hits comes back as its error.
const quiet: CrawlLogger = { info: () => undefined, warn: () => undefined, debug: () => undefined };

type SecretReader = (name: string) => string | undefined;
let secrets: Promise<SecretReader> | undefined;

/**
 * astro:env's getSecret where Astro bundled this module: the one way to read a server secret that
 * every adapter implements (on Cloudflare Workers the Worker's bindings, which reach process.env
 * only with nodejs_compat). Imported lazily, so importing the live loader stays light and works
 * outside Astro (tests, Astro 4), where the process environment is read instead.
 */
function secretReader(): Promise<SecretReader> {
  secrets ??= import("astro:env/server").then(
    ({ getSecret }) =>
      (name) =>
        getSecret(name) ?? globalThis.process?.env?.[name],
    () => (name) => globalThis.process?.env?.[name],
  );
  return secrets;
}

/**
 * Settings: explicit options, else the comments() integration's (in `astro dev`, same process),
 * else the COMMENTS_* server secrets at request time (a deployed server runs without the
 * integration), read through astro:env.
 */
export async function liveSettings(options: Partial<CommentsOptions> = {}): Promise<LiveSettings> {
  const site = onlySite();
  if (site?.options.credentials && Object.keys(options).length === 0) return site.options as LiveSettings;
  const read = await secretReader();
  const env = Object.fromEntries(Object.values(envNames).map((name) => [name, read(name)]));
  // resolveOptions throws a CommentsConfigError naming the missing variables, so credentials are set.
  return resolveOptions(options, env) as LiveSettings;
}

/** Every thread stored under these endpoints (one crawl each, concurrently). */
export async function fetchThreads(
  credentials: Credentials,
  options: CrawlOptions,
  endpoints: readonly URL[],
): Promise<CommentThread[]> {
  // Someone is waiting: advice in errors is to try again rather than build again.
  const crawls = endpoints.map(
    async (endpoint) =>
      (await crawlComments({ ...credentials, endpoint }, options, quiet, collectThreads, { audience: "request" }))
        .result,
  );
  return (await Promise.all(crawls)).flat();
}

/** The threads of one page (any spelling of its path), as the API stores them under each spelling. */
export async function fetchPageThreads(
  key: string,
  settings: LiveSettings,
  options: CrawlOptions,
): Promise<CommentThread[]> {
  const endpoints = storedSpellings(key).map((path) => pathEndpoint(settings.credentials.endpoint, path));
  return (await fetchThreads(settings.credentials, options, endpoints)).filter(
    (thread) => pathKey(thread.path) === key,
  );
}

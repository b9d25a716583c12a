// The state a build publishes (feeds.state), handed to its prerendered route as a virtual module:
// the route may be prerendered outside this process (workerd), where the site registry is not.
// The module is loaded after the content layer synced, so it holds this build's crawl.
import type { AstroConfig } from "astro";
import type { SiteState } from "../site-registry.ts";
import { STATE_FORMAT, type CommentsState } from "./comments-state.ts";

type VitePlugin = NonNullable<AstroConfig["vite"]["plugins"]>[number];

export const STATE_MODULE = "virtual:astro-comments/state";

/**
 * What the build shows, as a state. A build that fell back to earlier comments (or crawled
 * nothing) publishes an incomplete state, which no check takes for current.
 */
export function publishedState(site: Pick<SiteState, "options" | "status" | "state">): CommentsState {
  if (site.state !== undefined && site.status?.stale === false) return site.state;
  return { format: STATE_FORMAT, generator: "astro-comments", domain: site.options.credentials?.domain ?? "", crawledAt: site.status?.fetchedAt ?? null, complete: false };
}

export function stateModulePlugin(site: SiteState): VitePlugin {
  return {
    name: "astro-comments:state",
    resolveId: { filter: { id: /^virtual:astro-comments\/state$/ }, handler: () => `\0${STATE_MODULE}` },
    load: { filter: { id: /^\0virtual:astro-comments\/state$/ }, handler: () => `export default ${JSON.stringify(publishedState(site))};` },
  } as VitePlugin;
}

// What the integration hands to the loader and what the loader reports back, per site root.
// Astro loads astro.config natively but content.config.ts through Vite, so the integration and the
// loader are two instances of this package in one process: module state is not shared between
// them, globalThis is. Nothing here reaches the browser or the build output.
import type { PagesSettings } from "./render/comment-pages.ts";
import type { LoaderContext } from "astro/loaders";
import type { FetchedComments } from "./loader/fetch-comments.ts";
import type { FetchStatus } from "./loader/fetch-status.ts";
import type { CompleteFreshnessState } from "./freshness/freshness-state.ts";
import type { ResolvedOptions } from "./integration/options.ts";

export interface SiteHandoff {
  options: ResolvedOptions;
  command: "dev" | "build" | "preview" | "sync";
  /** Comment pages as the site's URLs shape them (false: off); set by the integration at config setup. */
  pages?: PagesSettings | false;
  /**
   * Set by the integration: what the loader runs on every sync. It lives here, not in the loader's
   * module, so that a page importing content.config.ts bundles a loader that names no fetch or
   * render code (undici, PrismJS, htmlparser2): the integration is never part of a page.
   */
  sync?: (context: LoaderContext) => Promise<void>;
  /** Set by the loader: the collection it serves (the data API reads this one). */
  collection?: string;
  /** Set by the loader after each fetch, successful or not. */
  status?: FetchStatus;
  /** The fetch the integration started while Astro set up; the loader's first sync takes it. */
  prefetch?: Promise<FetchedComments>;
  /** The loader's background save of the last good comments; the integration awaits it. */
  pendingWrite?: Promise<void>;
  /** Called by the loader when the status changes, so the dev server can refresh what depends on it. */
  onStatus?: (status: FetchStatus) => void;
  /** Set by the loader after each sync: page key → comments stored for it (the orphan report reads it). */
  storedPages?: ReadonlyMap<string, number>;
  /** Set by the loader after each successful crawl when feeds.state is on: digests of what it crawled. */
  crawlState?: CompleteFreshnessState;
}

const key = Symbol.for("astro-comments.sites");

function sites(): Map<string, SiteHandoff> {
  const scope = globalThis as { [key]?: Map<string, SiteHandoff> };
  return (scope[key] ??= new Map());
}

export function registerSite(root: URL, state: SiteHandoff): void {
  sites().set(root.href, state);
}

export function siteHandoff(root: URL): SiteHandoff | undefined {
  return sites().get(root.href);
}

/** The site when exactly one is registered: a live loader runs without the site's root. */
export function onlySite(): SiteHandoff | undefined {
  const all = [...sites().values()];
  return all.length === 1 ? all[0] : undefined;
}

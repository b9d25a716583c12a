// The one Vite plugin of the package: it serves every virtual module (constants.ts lists them,
// virtual.d.ts types them) to the components, the data API and the injected routes. Nothing secret:
// virtual modules end up in the build's bundles. Each one stays byte-identical from build to build
// unless what it says changes, because Astro's incremental build re-renders every page whose
// module graph changed. Values are read when a module is first loaded, which is after the content
// layer synced; the dev refresh invalidates them after each sync.
import type { AstroConfig } from "astro";
import { VIRTUAL_MODULES } from "../constants.ts";
import type { FeedSettings } from "../feeds/feed-settings.ts";
import { STATE_FORMAT, type FreshnessState } from "../freshness/freshness-state.ts";
import type { FetchStatus } from "../loader/fetch-status.ts";
import type { PagesSettings } from "../render/comment-pages.ts";
import type { SiteHandoff } from "../site-registry.ts";
import type { RenderSettings, ResolvedOptions } from "./options.ts";

type VitePlugin = NonNullable<AstroConfig["vite"]["plugins"]>[number];
type ModuleName = keyof typeof VIRTUAL_MODULES;

/**
 * Render settings, the per-locale texts, and the collection the loader fills: the config module.
 * @public virtual.d.ts types the module with it, which knip cannot follow.
 */
export interface VirtualConfig extends RenderSettings {
  messages: ResolvedOptions["messages"];
  collection: string;
  /** Comment pages, or false when every comment shows on its post. */
  pages: PagesSettings | false;
}

/**
 * What `<Comments>` says when it shows an earlier fetch's comments; null when it says nothing.
 * @public virtual.d.ts types the notice module with it.
 */
export interface StaleNotice {
  asOf: string | null;
}

const DEFAULT_STATUS: FetchStatus = { fetchedAt: null, stale: false };

/** The resolved ids, as the dev refresh finds them in Vite's module graphs. */
export const resolvedVirtualModuleIds = Object.values(VIRTUAL_MODULES).map((id) => `\0${id}`);

const nameOfId = new Map(Object.entries(VIRTUAL_MODULES).map(([name, id]) => [id as string, name as ModuleName]));

function moduleValue(
  name: Exclude<ModuleName, "layout">,
  site: SiteHandoff,
  feeds: FeedSettings | null,
  pages: PagesSettings | false,
): unknown {
  const { order, dateFormat, heading, emptyText, darkMode, searchIndex, messages, staleNotice } = site.options;
  const status = site.status ?? DEFAULT_STATUS;
  switch (name) {
    case "config":
      return {
        order,
        dateFormat,
        heading,
        emptyText,
        darkMode,
        searchIndex,
        messages,
        collection: site.collection ?? "comments",
        pages,
      } satisfies VirtualConfig;
    case "status":
      return status;
    case "notice":
      return (staleNotice && status.stale ? { asOf: status.fetchedAt } : null) satisfies StaleNotice | null;
    case "feeds":
      return feeds;
    case "state":
      return publishedState(site);
  }
}

export function virtualModulesPlugin(
  site: SiteHandoff,
  feeds: FeedSettings | null,
  pages: PagesSettings | false,
  /** The file of the layout comment pages render in: the site's, or the integration's own. */
  layout: string,
): VitePlugin {
  return {
    name: "astro-comments:virtual-modules",
    resolveId: {
      filter: { id: /^virtual:astro-comments\// },
      handler: (id: string) => (nameOfId.has(id) ? `\0${id}` : undefined),
    },
    load: {
      filter: { id: /^\0virtual:astro-comments\// },
      handler: (id: string) => {
        const name = nameOfId.get(id.slice(1));
        if (name === undefined) return undefined;
        // A component, not a value: Vite resolves and compiles the file like any of the site's.
        if (name === "layout") return `export { default } from ${JSON.stringify(layout)};`;
        return `export default ${JSON.stringify(moduleValue(name, site, feeds, pages))};`;
      },
    },
  } as VitePlugin;
}

/**
 * What the build shows, as a state. A build that fell back to earlier comments (or crawled
 * nothing) publishes an incomplete state, which no check takes for current.
 */
export function publishedState(site: Pick<SiteHandoff, "options" | "status" | "crawlState">): FreshnessState {
  if (site.crawlState !== undefined && site.status?.stale === false) return site.crawlState;
  return {
    format: STATE_FORMAT,
    generator: "astro-comments",
    domain: site.options.credentials?.domain ?? "",
    crawledAt: site.status?.fetchedAt ?? null,
    complete: false,
  };
}

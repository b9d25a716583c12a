// Virtual modules for the components and the data API. Nothing secret: virtual modules end up in
// the build's bundles. Each one stays byte-identical from build to build unless what it says
// changes, because Astro's incremental build re-renders every page whose module graph changed.
import type { AstroConfig } from "astro";
import type { FetchStatus } from "./fetch-status.ts";
import type { RenderSettings, ResolvedOptions } from "./options.ts";
import type { SiteState } from "./site-registry.ts";

type VitePlugin = NonNullable<AstroConfig["vite"]["plugins"]>[number];

/** Render settings, the per-locale texts, and the collection the loader fills. */
export interface VirtualConfig extends RenderSettings {
  messages: ResolvedOptions["messages"];
  collection: string;
}

/** What `<Comments>` says when it shows an earlier fetch's comments; null when it says nothing. */
export interface StaleNotice {
  asOf: string | null;
}

export const virtualModuleIds = ["virtual:astro-comments/config", "virtual:astro-comments/status", "virtual:astro-comments/notice"] as const;

const DEFAULT_STATUS: FetchStatus = { fetchedAt: null, stale: false };

function moduleValues(site: SiteState): Record<(typeof virtualModuleIds)[number], unknown> {
  const { order, dateFormat, heading, emptyText, darkMode, searchIndex, messages, staleNotice } = site.options;
  const status = site.status ?? DEFAULT_STATUS;
  const config: VirtualConfig = { order, dateFormat, heading, emptyText, darkMode, searchIndex, messages, collection: site.collection ?? "comments" };
  const notice: StaleNotice | null = staleNotice && status.stale ? { asOf: status.fetchedAt } : null;
  return { "virtual:astro-comments/config": config, "virtual:astro-comments/status": status, "virtual:astro-comments/notice": notice };
}

// Values are read when a module is first loaded, which is after the content layer synced.
export function virtualModulesPlugin(site: SiteState): VitePlugin {
  return {
    name: "astro-comments:virtual-modules",
    resolveId: {
      filter: { id: /^virtual:astro-comments\// },
      handler: (id: string) => ((virtualModuleIds as readonly string[]).includes(id) ? `\0${id}` : undefined),
    },
    load: {
      filter: { id: /^\0virtual:astro-comments\// },
      handler: (id: string) => {
        const value = moduleValues(site)[id.slice(1) as (typeof virtualModuleIds)[number]];
        return value === undefined ? undefined : `export default ${JSON.stringify(value)};`;
      },
    },
  } as VitePlugin;
}

// virtual:astro-comments/config: the render settings and the store's location, for components.
// Never the token: virtual modules end up in the build's bundles.
import type { AstroConfig } from "astro";
import type { RenderSettings } from "./options.ts";

type VitePlugin = NonNullable<AstroConfig["vite"]["plugins"]>[number];

export const VIRTUAL_CONFIG_ID = "virtual:astro-comments/config";

export interface VirtualConfig extends RenderSettings {
  /** Absolute path of the comments store written by the integration. */
  storeFile: string;
}

export function virtualConfigPlugin(config: VirtualConfig): VitePlugin {
  const resolvedId = `\0${VIRTUAL_CONFIG_ID}`;
  return {
    name: "astro-comments:virtual-config",
    resolveId: {
      filter: { id: /^virtual:astro-comments\/config$/ },
      handler: () => resolvedId,
    },
    load: {
      filter: { id: /^\0virtual:astro-comments\/config$/ },
      handler: () => `export default ${JSON.stringify(config)};`,
    },
  } as VitePlugin;
}

// Names both sides of the package use: the integration (loaded with astro.config) and the loader
// (loaded through Vite with content.config). Here rather than in either side's modules, so that
// importing a name never loads the other side's code.

/** The integration's name in Astro's logs and integration list. */
export const INTEGRATION_NAME = "astro-comments";

/** The loader's name in logs, and what `refreshContent({ loaders })` selects. */
export const LOADER_NAME = "astro-comments";

/** Every virtual module the integration serves; virtual.d.ts types them. */
export const VIRTUAL_MODULES = {
  /** Render settings and texts for the components. */
  config: "virtual:astro-comments/config",
  /** Where the comments shown come from (`astro-comments/status`). */
  status: "virtual:astro-comments/status",
  /** What `<Comments>` says when it shows an earlier fetch's comments. */
  notice: "virtual:astro-comments/notice",
  /** The feed and counts routes' settings. */
  feeds: "virtual:astro-comments/feeds",
  /** The published freshness state (feeds.state). */
  state: "virtual:astro-comments/state",
  /** The layout comment pages render in: the site's (pages.layout) or the integration's own. */
  layout: "virtual:astro-comments/layout",
} as const;

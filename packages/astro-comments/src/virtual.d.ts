/// <reference types="astro/client" />
// The types of every virtual module integration/virtual-modules.ts serves (ids in constants.ts).
declare module "virtual:astro-comments/config" {
  const config: import("./integration/virtual-modules.ts").VirtualConfig;
  export default config;
}
declare module "virtual:astro-comments/status" {
  const status: import("./loader/fetch-status.ts").FetchStatus;
  export default status;
}
declare module "virtual:astro-comments/layout" {
  const Layout: import("astro/runtime/server/index.js").AstroComponentFactory;
  export default Layout;
}
declare module "virtual:astro-comments/notice" {
  const notice: import("./integration/virtual-modules.ts").StaleNotice | null;
  export default notice;
}
declare module "virtual:astro-comments/feeds" {
  const settings: import("./feeds/feed-settings.ts").FeedSettings;
  export default settings;
}
declare module "virtual:astro-comments/state" {
  const state: import("./freshness/freshness-state.ts").FreshnessState;
  export default state;
}

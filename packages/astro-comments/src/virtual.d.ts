/// <reference types="astro/client" />
declare module "virtual:astro-comments/config" {
  const config: import("./virtual-module.ts").VirtualConfig;
  export default config;
}
declare module "virtual:astro-comments/status" {
  const status: import("./fetch-status.ts").FetchStatus;
  export default status;
}
declare module "virtual:astro-comments/notice" {
  const notice: import("./virtual-module.ts").StaleNotice | null;
  export default notice;
}

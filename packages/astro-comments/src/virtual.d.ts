declare module "virtual:astro-comments/config" {
  const config: import("./virtual-module.ts").VirtualConfig;
  export default config;
}

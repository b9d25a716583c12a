declare module "virtual:astro-comments/feeds" {
  const settings: import("./feed-settings.ts").FeedSettings;
  export default settings;
}

// The Astro integration: validates options when the config loads, hands them to the loader,
// serves render settings to components through virtual modules, and in dev wires up refreshing.
import type { AstroConfig, AstroIntegration, AstroIntegrationLogger, IntegrationResolvedRoute } from "astro";
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { envField } from "astro/config";
import { envNames } from "../api/credentials.ts";
import { setupDevRefresh } from "./dev-refresh.ts";
import { checkCrawlFiles, startFetch } from "../loader/fetch-comments.ts";
import { commandMode, readCommentsEnv } from "./env.ts";
import { INTEGRATION_NAME } from "../constants.ts";
import { configError } from "../errors.ts";
import { LayoutNotFound, MissingCollection, OrphanComments } from "../errors-data.ts";
import { resolveOptions, type CommentsOptions, type ResolvedOptions } from "./options.ts";
import { urlsEndInSlash, type PagesSettings } from "../render/comment-pages.ts";
import { builtPageKeys, describeOrphans, findOrphans, unshownKeys } from "./orphans.ts";
import { feedSettings } from "../feeds/feed-settings.ts";
import { finishFeeds } from "../feeds/finish-feeds.ts";
import { postOfPage, removeUnshownCommentPages } from "./unshown-comment-pages.ts";
import { plural } from "../utils/counting.ts";
import { registerSite, type SiteHandoff } from "../site-registry.ts";
// Imported here, not lazily: Astro loads an astro.config.ts through a Vite server it closes
// before the first sync, so a dynamic import would have nothing left to load it with.
import { syncComments } from "../loader/sync-comments.ts";
import { virtualModulesPlugin } from "./virtual-modules.ts";

/** Lists comments no built page shows, in one block; with `orphans: "fail"` the build fails after. */
function reportOrphans(
  site: SiteHandoff,
  stored: ReadonlyMap<string, number>,
  built: ReadonlySet<string>,
  base: string,
  onDemand: RegExp[],
  logger: AstroIntegrationLogger,
): void {
  if (site.options.orphans === "ignore") return;
  const orphans = findOrphans(stored, built, onDemand, base);
  if (orphans.length === 0) return;
  const report = describeOrphans(orphans);
  if (site.options.orphans === "warn") {
    logger.warn(report);
    return;
  }
  const error = configError(OrphanComments, report);
  error.stack = "";
  throw error;
}

/** The `pages` option with what its URLs need from the site's config. */
function pagesSettings(
  option: ResolvedOptions["pages"],
  config: Pick<AstroConfig, "base" | "trailingSlash" | "build">,
): PagesSettings | false {
  if (option === false) return false;
  const trailingSlash = urlsEndInSlash(config);
  return { size: option.size, route: option.route, base: config.base, trailingSlash, movedLinks: option.movedLinks };
}

/**
 * The file of the layout comment pages render in: the site's `pages.layout`, resolved against its
 * root, or the integration's minimal page.
 */
function commentPageLayout(option: ResolvedOptions["pages"], root: URL): string {
  const own = fileURLToPath(new URL("../../components/CommentPageLayout.astro", import.meta.url));
  if (option === false || option.layout === undefined) return own;
  const path = fileURLToPath(new URL(option.layout, root));
  if (!statSync(path, { throwIfNoEntry: false })?.isFile()) throw configError(LayoutNotFound, option.layout, path);
  return path;
}

/** Only dev and build fetch; sync, check and preview must work without credentials. */
const fetches = (command: string) => command === "dev" || command === "build";

/**
 * COMMENTS_* as astro:env server secrets, optional (explicit options may stand in for them), for
 * the validation and types Astro gives them. A variable the site's config already declares keeps
 * the site's declaration.
 */
function secretsSchema(declared: Record<string, unknown> | undefined) {
  const secret = envField.string({ context: "server", access: "secret", optional: true });
  return Object.fromEntries(
    Object.values(envNames)
      .filter((name) => declared?.[name] === undefined)
      .map((name) => [name, secret]),
  );
}

/**
 * Comments from the comments service, rendered into the site's pages at build time.
 *
 * @example
 * // astro.config.mjs
 * import comments from "astro-comments";
 * export default defineConfig({ integrations: [comments({ injectStyles: true })] });
 */
export default function comments(options: CommentsOptions = {}): AstroIntegration {
  let site: SiteHandoff | undefined;
  let base = "/";
  let onDemandRoutes: RegExp[] = [];
  const checkCollection = () => {
    if (site && site.collection === undefined) {
      const error = configError(MissingCollection);
      error.stack = "";
      throw error;
    }
  };

  return {
    name: INTEGRATION_NAME,
    hooks: {
      "astro:config:setup": ({ config, command, updateConfig, injectScript, injectRoute, logger }) => {
        const env = readCommentsEnv(config, commandMode(command));
        // Missing credentials are not final yet: an adapter may bring them at astro:config:done
        // (@astrojs/cloudflare copies wrangler vars and .dev.vars into the environment then).
        const resolved = resolveOptions(options, env, {
          locale: config.i18n?.defaultLocale,
          requireCredentials: false,
        });
        const current: SiteHandoff = { options: resolved, command };
        current.sync = (context) => syncComments(context, current);
        site = current;
        // Started now when it can be, so network time hides behind Astro's setup.
        if (resolved.credentials && fetches(command))
          site.prefetch = startFetch(site, resolved.credentials, logger, {}, checkCrawlFiles(config));
        registerSite(config.root, site);
        base = config.base;
        const { atom, pageAtom } = resolved.feeds;
        const feeds = atom === undefined && pageAtom === undefined ? null : feedSettings(resolved.feeds, config);
        const pages = pagesSettings(resolved.pages, config);
        current.pages = pages;
        updateConfig({
          vite: { plugins: [virtualModulesPlugin(site, feeds, pages, commentPageLayout(resolved.pages, config.root))] },
          // The live loader and the island read the credentials with getSecret at request time.
          env: { schema: secretsSchema(config.env?.schema) },
        });
        if (resolved.injectStyles) injectScript("page-ssr", 'import "astro-comments/styles.css";');
        // Entrypoints as URLs next to this module in dist, so the routes need no package export.
        const routes = {
          atom: "site-feed-route",
          pageAtom: "page-feed-route",
          counts: "counts-route",
          state: "state-route",
        };
        for (const [option, module] of Object.entries(routes)) {
          const pattern = resolved.feeds[option as keyof typeof routes];
          if (pattern === undefined) continue;
          injectRoute({ pattern, entrypoint: new URL(`../feeds/${module}.js`, import.meta.url), prerender: true });
        }
        // The comment pages: one prerendered route whose getStaticPaths lists every page a post or
        // a long thread needs (docs/long-threads.md).
        if (pages !== false) {
          injectRoute({
            pattern: `${pages.route}/[...page]`,
            entrypoint: new URL("../../components/CommentPage.astro", import.meta.url),
            prerender: true,
          });
          if (pages.movedLinks)
            injectRoute({
              pattern: `${pages.route}/[...page].json`,
              entrypoint: new URL("../feeds/moved-links-route.js", import.meta.url),
              prerender: true,
            });
        }
      },
      // Adapters' hooks run first (Astro puts the adapter at the head of the integrations), so the
      // environment now holds what the host's settings add to it.
      "astro:config:done": ({ config, logger }) => {
        if (site === undefined || site.options.credentials || !fetches(site.command)) return;
        const resolved = resolveOptions(options, readCommentsEnv(config, commandMode(site.command)), {
          locale: config.i18n?.defaultLocale,
        });
        site.options = resolved;
        site.prefetch = startFetch(site, resolved.credentials!, logger, {}, checkCrawlFiles(config));
      },
      // Pages rendered on demand can show any path their pattern matches: never orphans.
      "astro:routes:resolved": ({ routes }) => {
        onDemandRoutes = routes
          .filter(
            (route: IntegrationResolvedRoute) =>
              !route.isPrerendered && route.origin !== "internal" && route.type === "page",
          )
          .map((route) => route.patternRegex);
      },
      "astro:server:setup": ({ server, refreshContent, logger }) => {
        const current = site!;
        current.onStatus = setupDevRefresh(
          { server, refreshContent, logger },
          { pollSeconds: current.options.devPollSeconds, status: () => current.status },
        );
      },
      // The content layer has synced by now: a site that never ran the loader lacks the collection.
      "astro:server:start": checkCollection,
      "astro:build:start": checkCollection,
      "astro:build:done": async ({ pages, dir, assets, logger }) => {
        await site?.pendingWrite;
        if (site === undefined) return;
        const stored = site.storedPages ?? new Map<string, number>();
        const built = builtPageKeys(
          pages.map((page) => page.pathname),
          base,
        );
        const unshown = new Set(unshownKeys(stored.keys(), built, onDemandRoutes, base));
        const commentPages = site.pages ?? false;
        await finishFeeds(site.options.feeds, base, unshown, { dir, assets }, (key) => postOfPage(key, commentPages));
        const removed = await removeUnshownCommentPages(commentPages, unshown, { dir, assets });
        if (removed > 0) logger.info(`removed ${plural(removed, "comment page")} of paths no built page shows`);
        reportOrphans(site, stored, built, base, onDemandRoutes, logger);
      },
    },
  };
}

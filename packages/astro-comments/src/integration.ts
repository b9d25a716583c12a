// The Astro integration: validates options when the config loads, hands them to the loader,
// serves render settings to components through virtual modules, and in dev wires up refreshing.
import type { AstroIntegration } from "astro";
import { setupDevRefresh } from "./dev-refresh.ts";
import { startFetch } from "./fetch-comments.ts";
import { commandMode, readCommentsEnv } from "./env.ts";
import { CommentsConfigError } from "./errors.ts";
import { resolveOptions, type CommentsOptions } from "./options.ts";
import { registerSite, type SiteState } from "./site-registry.ts";
import { virtualModulesPlugin } from "./virtual-module.ts";

export const INTEGRATION_NAME = "astro-comments";

function missingCollection(): CommentsConfigError {
  return new CommentsConfigError(
    "astro-comments: no collection uses commentsLoader(); add it to src/content.config.ts (the file that exports `collections`).",
    'Add these lines to src/content.config.ts:\n  import { defineCollection } from "astro:content";\n  import { commentsLoader } from "astro-comments/loader";\n  export const collections = { comments: defineCollection({ loader: commentsLoader() }) };\n(keep your other collections in the same object).',
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
  let site: SiteState | undefined;
  const checkCollection = () => {
    if (site && site.collection === undefined) {
      const error = missingCollection();
      error.stack = "";
      throw error;
    }
  };

  return {
    name: INTEGRATION_NAME,
    hooks: {
      "astro:config:setup": ({ config, command, updateConfig, injectScript, logger }) => {
        const env = readCommentsEnv(config, commandMode(command));
        const resolved = resolveOptions(options, env, {
          locale: config.i18n?.defaultLocale,
          // Only dev and build fetch; sync, check and preview must work without credentials.
          requireCredentials: command === "dev" || command === "build",
        });
        site = { options: resolved, command };
        if (resolved.credentials && (command === "build" || command === "dev")) site.prefetch = startFetch(site, resolved.credentials, logger);
        registerSite(config.root, site);
        updateConfig({ vite: { plugins: [virtualModulesPlugin(site)] } });
        if (resolved.injectStyles) injectScript("page-ssr", 'import "astro-comments/styles.css";');
      },
      "astro:server:setup": ({ server, refreshContent, logger }) => {
        const current = site!;
        current.onStatus = setupDevRefresh({ server, refreshContent, logger }, { pollSeconds: current.options.devPollSeconds, status: () => current.status });
      },
      // The content layer has synced by now: a site that never ran the loader lacks the collection.
      "astro:server:start": checkCollection,
      "astro:build:start": checkCollection,
      "astro:build:done": async () => {
        await site?.pendingWrite;
      },
    },
  };
}

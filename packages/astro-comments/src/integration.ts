// The Astro integration: validates options when the config loads, hands render settings to
// components through a virtual module, and fetches every comment once per build (and once when
// the dev server starts).
import type { AstroIntegration } from "astro";
import { fileURLToPath } from "node:url";
import { fetchComments } from "./fetch-comments.ts";
import { readCommentsEnv, resolveOptions, type CommentsOptions, type ResolvedOptions } from "./options.ts";
import { virtualConfigPlugin } from "./virtual-module.ts";

export const INTEGRATION_NAME = "astro-comments";

export default function comments(options: CommentsOptions = {}): AstroIntegration {
  let resolved: ResolvedOptions | undefined;
  let storeFile = "";
  const fetchOnce = async (logger: Parameters<typeof fetchComments>[2]) => {
    if (!resolved) throw new Error("astro-comments: astro:config:setup did not run before fetching");
    await fetchComments(resolved, storeFile, logger);
  };

  return {
    name: INTEGRATION_NAME,
    hooks: {
      "astro:config:setup": ({ config, command, updateConfig, createCodegenDir, injectScript }) => {
        const env = readCommentsEnv(config.root, command === "dev" ? "development" : "production");
        resolved = resolveOptions(options, env, {
          locale: config.i18n?.defaultLocale,
          // Only dev and build fetch; sync, check and preview must work without credentials.
          requireCredentials: command === "dev" || command === "build",
        });
        storeFile = fileURLToPath(new URL("comments.json", createCodegenDir()));
        const { order, dateFormat, heading, emptyText } = resolved;
        updateConfig({ vite: { plugins: [virtualConfigPlugin({ storeFile, order, dateFormat, heading, emptyText })] } });
        if (resolved.injectStyles) injectScript("page-ssr", 'import "astro-comments/styles.css";');
      },
      "astro:build:start": async ({ logger }) => {
        await fetchOnce(logger);
      },
      "astro:server:setup": async ({ logger }) => {
        await fetchOnce(logger);
      },
    },
  };
}

// The run's npm registry (scripts/test-registry.ts, vitest's global setup): our three packages as
// `npm publish` put them there, everything else proxied. A test file that imports this helper makes
// the global setup start it.
import { join } from "node:path";
import { inject } from "vitest";
import type { PublishedPackage, TestRegistry } from "../../../../scripts/test-registry.ts";

export type { PublishedPackage };

/** The registry of this run; throws if the global setup did not start one. */
export function registry(): TestRegistry {
  const started = inject("registry");
  if (!started) throw new Error("no test registry: run this file with the repository's vitest.config.ts");
  return started;
}

/** `name@version` of a package of ours as published to the registry, e.g. "astro-comments@0.1.0". */
export function spec(workspace: keyof TestRegistry["published"]): string {
  const { name, version } = registry().published[workspace];
  return `${name}@${version}`;
}

/**
 * Environment variables that point npm, npx, pnpm, Yarn 4 and Bun at the registry, as a site
 * owner's `.npmrc` or CI configuration would; Yarn also needs to be told that plain HTTP on
 * 127.0.0.1 is fine. npm and pnpm cache packages by their contents' hash; Yarn and Bun by name
 * and version, and Yarn its metadata by host, not port, so each run gives them caches of its own:
 * otherwise they would install an earlier run's astro-comments@0.1.0, from an earlier port.
 */
export function registryEnv(): Record<string, string> {
  const { url, cacheDir } = registry();
  return {
    npm_config_registry: url,
    // Without the trailing slash, the tarball URLs the registry gives are the ones Yarn expects.
    YARN_NPM_REGISTRY_SERVER: url.replace(/\/$/, ""),
    YARN_UNSAFE_HTTP_WHITELIST: "127.0.0.1",
    YARN_GLOBAL_FOLDER: join(cacheDir, "yarn"),
    BUN_CONFIG_REGISTRY: url,
    BUN_INSTALL_CACHE_DIR: join(cacheDir, "bun"),
  };
}

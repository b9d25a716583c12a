// COMMENTS_* from the environment and the project's .env files. Vite's own loadEnv reads them, so
// `vite.envDir`, the mode's files (.env.[mode], .env.[mode].local) and the precedence of the real
// environment behave exactly as they do for the rest of the site.
import type { AstroConfig } from "astro";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

// The Vite that Astro itself runs on, found from Astro's own folder: npm nests it under astro when
// something else claims the top-level `vite`, and a `vite` dependency of this package would be a
// second copy (for Astro 5 and 6, another major).
const astroRequire = createRequire(createRequire(import.meta.url).resolve("astro/package.json"));
const { loadEnv } = astroRequire("vite") as {
  loadEnv(mode: string, envDir: string | false, prefixes: string): Record<string, string>;
};

/** The mode Astro runs in: `--mode` when given, else what the command implies. */
export function commandMode(command: string, argv: readonly string[] = process.argv): string {
  const flag = argv.findIndex((arg) => arg === "--mode" || arg.startsWith("--mode="));
  if (flag !== -1) {
    const value = argv[flag]!.includes("=") ? argv[flag]!.slice("--mode=".length) : argv[flag + 1];
    if (value) return value;
  }
  return command === "dev" ? "development" : "production";
}

export function readCommentsEnv(config: Pick<AstroConfig, "root" | "vite">, mode: string): Record<string, string> {
  const envDir = config.vite?.envDir;
  const root = fileURLToPath(config.root);
  return loadEnv(mode, envDir === false ? false : resolve(root, envDir ?? "."), "COMMENTS_");
}

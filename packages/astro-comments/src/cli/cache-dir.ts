// Where the check leaves its crawl for the build: the site's cache folder, Astro's cacheDir, which
// the check must find without loading Astro or the site's config. --cache-dir says it outright;
// else a cacheDir written in astro.config as a plain string is taken (resolved against the root,
// as Astro does); else Astro's default, node_modules/.astro. A cacheDir the check cannot read (an
// expression) costs nothing: the build also looks in the default folder.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** Astro's own default, relative to the root. */
const DEFAULT_CACHE_DIR = join("node_modules", ".astro");

/** The config file names Astro looks for, in its order. */
const CONFIG_FILES = [
  "astro.config.mjs",
  "astro.config.js",
  "astro.config.ts",
  "astro.config.mts",
  "astro.config.cjs",
  "astro.config.cts",
];

// Only a line holding nothing but the property with a quoted string: anything cleverer is code
// the check does not run.
const CACHE_DIR_LINE = /^\s*cacheDir\s*:\s*(["'])([^"'\\\n]+)\1\s*,?\s*$/gm;

/** The cacheDir a site's astro.config sets as a plain string, if exactly one such line is there. */
function configuredCacheDir(root: string): string | undefined {
  for (const name of CONFIG_FILES) {
    let text: string;
    try {
      text = readFileSync(join(root, name), "utf8");
    } catch {
      continue;
    }
    const found = [...text.matchAll(CACHE_DIR_LINE)];
    return found.length === 1 ? found[0]![2] : undefined;
  }
  return undefined;
}

/** The cache folder (an absolute path) of the site at `root`, when --cache-dir does not say. */
export function siteCacheDir(root: string): string {
  return resolve(root, configuredCacheDir(root) ?? DEFAULT_CACHE_DIR);
}

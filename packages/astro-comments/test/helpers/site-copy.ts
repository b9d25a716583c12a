// A private copy of a site for one test file. Builds of the same site share Astro's data store and
// caches (node_modules/.astro, .astro/), so test files building in parallel each get their own copy.
// Copies live inside the repository, where `astro` and `astro-comments` resolve as in a real site.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { exampleSite } from "./astro-cli.ts";

const sitesDir = fileURLToPath(new URL("../.sites/", import.meta.url));

export interface SiteCopy {
  dir: string;
  remove(): void;
}

export function copySite(name: string, from = exampleSite): SiteCopy {
  mkdirSync(sitesDir, { recursive: true });
  const dir = mkdtempSync(join(sitesDir, `${name}-`));
  cpSync(from, dir, { recursive: true, filter: (source) => !/[\\/](node_modules|dist|\.astro)$/.test(source) });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Edits a copy's astro.config.mjs. An edit that changes nothing throws: a replace that no longer
 * matches the example's config would otherwise build a site the test did not mean to.
 */
export function editConfig(dir: string, edit: (config: string) => string): void {
  const file = join(dir, "astro.config.mjs");
  const before = readFileSync(file, "utf8");
  const after = edit(before);
  if (after === before) throw new Error(`editing ${file} changed nothing: did the example site's config change?`);
  writeFileSync(file, after);
}

/** Replaces the example site's own `pages` line (it keeps its XSS corpus on one page) in a copy's config. */
export function setPagesOption(dir: string, replacement: string): void {
  editConfig(dir, (config) => config.replace("pages: { size: 200 },", replacement));
}

// A private copy of a site for one test file. Builds of the same site share Astro's data store and
// caches (node_modules/.astro, .astro/), so test files building in parallel each get their own copy.
// Copies live inside the repository, where `astro` and `astro-comments` resolve as in a real site.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
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

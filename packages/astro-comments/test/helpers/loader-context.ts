// A LoaderContext the way Astro hands one to a loader, backed by Maps, for running the loader's
// sync without a build. The store keeps entries across syncs like Astro's data store does.
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { AstroIntegrationLogger } from "astro";
import type { DataStore, LoaderContext, MetaStore } from "astro/loaders";
import { commentModules } from "../../src/loader/module-files.ts";
import type { PageCommentsData } from "../../src/loader/entry-schema.ts";

interface Entry {
  id: string;
  data: Record<string, unknown>;
  digest?: string | number;
  filePath?: string;
}

/** `moduleImports`: the content modules the last syncs named (Astro 5 and 6 bundle only those). */
export function memoryStore(): DataStore & { writes: number; moduleImports: Set<string> } {
  const entries = new Map<string, Entry>();
  const store = {
    writes: 0,
    moduleImports: new Set<string>(),
    addModuleImport: (filePath: string) => void store.moduleImports.add(filePath),
    get: (id: string) => entries.get(id),
    entries: () => [...entries.entries()],
    set(entry: Entry) {
      if (entry.digest !== undefined && entries.get(entry.id)?.digest === entry.digest) return false;
      store.writes++;
      entries.set(entry.id, structuredClone(entry));
      if (entry.filePath !== undefined) store.moduleImports.add(entry.filePath);
      return true;
    },
    values: () => [...entries.values()],
    keys: () => [...entries.keys()],
    delete: (id: string) => void entries.delete(id),
    clear: () => entries.clear(),
    has: (id: string) => entries.has(id),
  };
  return store as unknown as DataStore & { writes: number; moduleImports: Set<string> };
}

export function memoryMeta(): MetaStore {
  const values = new Map<string, string>();
  return {
    get: (key) => values.get(key),
    set: (key, value) => void values.set(key, value),
    has: (key) => values.has(key),
    delete: (key) => void values.delete(key),
  };
}

function captureLogger() {
  const lines: string[] = [];
  const logger = {
    info: (m: string) => lines.push(`INFO ${m}`),
    warn: (m: string) => lines.push(`WARN ${m}`),
    error: (m: string) => lines.push(`ERROR ${m}`),
    debug: () => undefined,
    fork: () => logger,
    label: "astro-comments",
    options: {},
  } as unknown as AstroIntegrationLogger;
  return { logger, lines };
}

/** A context for one site; pass the same `root` and `cacheDir` (and store) again to model the next build. */
export function loaderContext(overrides: { root?: URL; cacheDir?: URL; store?: DataStore; meta?: MetaStore } = {}) {
  const root = overrides.root ?? pathToFileURL(`${mkdtempSync(join(tmpdir(), "ac-site-"))}/`);
  const { logger, lines } = captureLogger();
  const context = {
    collection: "comments",
    store: overrides.store ?? memoryStore(),
    meta: overrides.meta ?? memoryMeta(),
    logger,
    config: { root, cacheDir: overrides.cacheDir ?? new URL("node_modules/.astro/", root) },
    generateDigest: (value: string | Record<string, unknown>) =>
      createHash("sha1")
        .update(typeof value === "string" ? value : JSON.stringify(value))
        .digest("hex"),
  } as unknown as LoaderContext;
  return { context, lines };
}

/** Every stored page's comments, read from the comment module its entry points at (as render(entry) would). */
export async function storedComments(context: LoaderContext): Promise<Map<string, PageCommentsData>> {
  const modules = commentModules(context.config);
  const pages = new Map<string, PageCommentsData>();
  for (const [id, entry] of context.store.entries()) {
    const data = (await modules.read(entry.filePath!))?.pages.get(id);
    if (data === undefined) throw new Error(`the module of ${id} (${entry.filePath}) does not hold its comments`);
    pages.set(id, data);
  }
  return pages;
}

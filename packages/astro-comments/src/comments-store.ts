// The fetched, rendered comments of a build, as one JSON file in Astro's codegen folder
// (.astro/integrations/astro-comments/). The integration writes it; components read it.
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { PageComments } from "./render/comment-tree.ts";

export const STORE_VERSION = 1;

export interface StoredComments {
  version: typeof STORE_VERSION;
  domain: string;
  /** Page key → that page's comments. */
  pages: Record<string, PageComments>;
}

/** Writes JSON aside and renames it into place, so a reader never sees half a file. */
export async function writeJsonFile(file: string, value: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(value));
  await rename(temporary, file);
}

/** Writes the store for other processes and hands it to components rendering in this one. */
export async function saveStore(file: string, domain: string, pages: StoredComments["pages"]): Promise<void> {
  const store: StoredComments = { version: STORE_VERSION, domain, pages };
  await writeJsonFile(file, store);
  publishStore(file, store);
}

export function parseStore(text: string, file: string): StoredComments {
  const store = JSON.parse(text) as Partial<StoredComments>;
  if (store.version !== STORE_VERSION || typeof store.pages !== "object" || store.pages === null) {
    throw new Error(`astro-comments: ${file} was written by another version of astro-comments; run the build again.`);
  }
  return store as StoredComments;
}

// In-process handoff: build and dev render in the process that fetched, so components use the
// store the integration already holds instead of parsing a second copy from disk.
const registry = Symbol.for("astro-comments.stores");
type Registry = Map<string, StoredComments>;

function publishStore(file: string, store: StoredComments): void {
  const scope = globalThis as { [registry]?: Registry };
  (scope[registry] ??= new Map()).set(file, store);
}

export function publishedStore(file: string): StoredComments | undefined {
  return (globalThis as { [registry]?: Registry })[registry]?.get(file);
}

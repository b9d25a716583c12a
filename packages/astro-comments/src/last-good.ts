// The site's last complete fetch, kept beside Astro's data store in cacheDir. Astro clears its
// whole store when the Astro config, the content config or the Astro version changes; a build
// during an outage right after such a change still has this copy to fall back on.
// Two files: the entries (rewritten only when the comments changed) and a small record of when
// the last complete fetch happened (rewritten by every successful fetch).
import { access, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PageCommentsData } from "./entry-schema.ts";

const FORMAT = 1;

export interface StoredEntry {
  id: string;
  digest: string;
  data: PageCommentsData;
}

export interface LastFetch {
  /** Which service and domain the comments came from. */
  source: string;
  fetchedAt: string;
  /** Digest over every entry's digest: says whether the entries file must be rewritten. */
  contentDigest: string;
}

export interface LastGoodEntries {
  source: string;
  contentDigest: string;
  renderVersion: string;
  entries: StoredEntry[];
}

export interface LastGoodFiles {
  readFetch(): Promise<LastFetch | undefined>;
  readEntries(): Promise<LastGoodEntries | undefined>;
  write(fetch: LastFetch, entries: () => LastGoodEntries, previous: LastFetch | undefined): Promise<void>;
}

async function readJson<T extends { source: string }>(file: string, source: string): Promise<T | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, "utf8")) as T & { format?: number };
    return parsed.format === FORMAT && parsed.source === source ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Written aside and renamed into place, so an interrupted build never leaves half a file. */
async function writeJson(file: string, value: object): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify({ format: FORMAT, ...value }));
  await rename(temporary, file);
}

export function lastGoodFiles(cacheDir: URL, source: string): LastGoodFiles {
  const dir = join(fileURLToPath(cacheDir), "astro-comments");
  const fetchFile = join(dir, "last-fetch.json");
  const entriesFile = join(dir, "last-good.json");
  return {
    readFetch: () => readJson<LastFetch>(fetchFile, source),
    readEntries: () => readJson<LastGoodEntries>(entriesFile, source),
    async write(fetch, entries, previous) {
      await mkdir(dir, { recursive: true });
      const entriesKept = previous?.contentDigest === fetch.contentDigest && (await access(entriesFile).then(() => true, () => false));
      if (!entriesKept) await writeJson(entriesFile, entries());
      await writeJson(fetchFile, fetch);
    },
  };
}

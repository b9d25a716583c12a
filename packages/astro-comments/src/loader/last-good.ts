// The site's last complete fetch, kept beside Astro's data store in cacheDir. Astro clears its
// whole store when the Astro config, the content config or the Astro version changes; a build
// during an outage right after such a change still has this copy to fall back on.
// Two files: the entries (rewritten only when the comments changed or the file does not hold them
// whole) and a small record of when the last complete fetch happened (rewritten by every
// successful fetch). An entry is a page's path, count, digest and module (the comments themselves
// stay in the page modules, see module-files.ts). The entries are written one JSON line each
// through a stream, in the background: the build goes on while they are written.
import { createReadStream } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { writeAside } from "../utils/write-aside.ts";
import { writeLines } from "../utils/write-lines.ts";
import type { PageEntryData } from "./entry-schema.ts";

const FORMAT = 3;

export interface StoredEntry {
  id: string;
  digest: string;
  data: PageEntryData;
  /** The page module with its comments, relative to the site root. */
  filePath: string;
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
  /** When the fetch that wrote these entries happened: a lower bound when last-fetch.json is damaged. */
  fetchedAt?: string;
  entries: StoredEntry[];
  /** Entries the file should hold but that are cut off or damaged. */
  unreadable: number;
}

type EntriesHeader = Omit<LastGoodEntries, "entries" | "unreadable">;

export interface LastGoodFiles {
  /** The folder, for messages. */
  readonly dir: string;
  readFetch(): Promise<LastFetch | undefined>;
  readEntries(): Promise<LastGoodEntries | undefined>;
  /** Starts writing; the promise settles when both files are in place. */
  write(
    fetch: LastFetch,
    header: EntriesHeader,
    entries: readonly StoredEntry[],
    previous: LastFetch | undefined,
  ): Promise<void>;
}

// A write still under way, per folder: a read waits for it, so the next sync sees what the last wrote.
const pending = new Map<string, Promise<void>>();

function isCurrent<T extends { source: string; format?: number }>(value: T, source: string): boolean {
  return value.format === FORMAT && value.source === source;
}

async function readJson<T extends { source: string }>(file: string, source: string): Promise<T | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, "utf8")) as T & { format?: number };
    return isCurrent(parsed, source) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

const isEntry = (entry: Partial<StoredEntry> | null): entry is StoredEntry =>
  typeof entry?.id === "string" &&
  typeof entry.digest === "string" &&
  typeof entry.filePath === "string" &&
  typeof entry.data?.path === "string" &&
  typeof entry.data.count === "number";

function parseEntry(line: string): StoredEntry | undefined {
  try {
    const entry = JSON.parse(line) as Partial<StoredEntry> | null;
    return isEntry(entry) ? entry : undefined;
  } catch {
    return undefined;
  }
}

// A file cut short (a CI cache restored in part, a full disk) or with damaged lines still gives the
// entries that are whole: each is one line, and the header says how many there should be.
async function readEntriesFile(file: string, source: string): Promise<LastGoodEntries | undefined> {
  try {
    const lines = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Number.POSITIVE_INFINITY });
    let header: (EntriesHeader & { format?: number; count?: number }) | undefined;
    const entries: StoredEntry[] = [];
    let damaged = 0;
    for await (const line of lines) {
      if (header === undefined) {
        header = JSON.parse(line) as EntriesHeader & { format?: number; count?: number };
        if (header === null || !isCurrent(header, source)) return undefined;
      } else if (line !== "") {
        const entry = parseEntry(line);
        if (entry === undefined) damaged++;
        else entries.push(entry);
      }
    }
    if (header === undefined) return undefined;
    const expected = typeof header.count === "number" ? header.count : entries.length + damaged;
    const { contentDigest, renderVersion, fetchedAt } = header;
    return {
      source: header.source,
      contentDigest,
      renderVersion,
      ...(typeof fetchedAt === "string" ? { fetchedAt } : {}),
      entries,
      unreadable: Math.max(damaged, expected - entries.length),
    };
  } catch {
    return undefined;
  }
}

/**
 * Whether the entries file holds exactly these entries under this header (its fetchedAt aside):
 * then it need not be written again. One cut short by a CI cache restored in part, damaged, or
 * left by another process writing at the same time is written again, or it would stay so for as
 * long as the comments do not change, and fail the next outage.
 */
async function holdsEntries(
  file: string,
  source: string,
  header: EntriesHeader,
  entries: readonly StoredEntry[],
): Promise<boolean> {
  const found = await readEntriesFile(file, source);
  return (
    found !== undefined &&
    found.unreadable === 0 &&
    found.contentDigest === header.contentDigest &&
    found.renderVersion === header.renderVersion &&
    found.entries.length === entries.length &&
    found.entries.every((entry, i) => JSON.stringify(entry) === JSON.stringify(entries[i]))
  );
}

function* entryLines(header: object, entries: readonly StoredEntry[]) {
  yield JSON.stringify(header);
  for (const entry of entries) yield JSON.stringify(entry);
}

/** A failed write's error, naming the file it was writing and the errno (ENOSPC, EROFS…). */
const naming = (file: string) => (error: NodeJS.ErrnoException) => {
  throw new Error(`could not write ${file} (${error.code ?? error.message})`, { cause: error });
};

export function lastGoodFiles(cacheDir: URL, source: string): LastGoodFiles {
  const dir = join(fileURLToPath(cacheDir), "astro-comments");
  const fetchFile = join(dir, "last-fetch.json");
  const entriesFile = join(dir, "last-good.jsonl");
  const settled = () => pending.get(dir)?.catch(() => undefined);
  return {
    dir,
    readFetch: async () => {
      await settled();
      return readJson<LastFetch>(fetchFile, source);
    },
    readEntries: async () => {
      await settled();
      return readEntriesFile(entriesFile, source);
    },
    write(fetch, header, entries, previous) {
      const writing = (async () => {
        await settled();
        await mkdir(dir, { recursive: true }).catch(naming(dir));
        const kept =
          previous?.contentDigest === fetch.contentDigest && (await holdsEntries(entriesFile, source, header, entries));
        if (!kept)
          await writeAside(entriesFile, (temporary) =>
            writeLines(temporary, entryLines({ format: FORMAT, ...header, count: entries.length }, entries)),
          ).catch(naming(entriesFile));
        await writeAside(fetchFile, (temporary) =>
          writeFile(temporary, JSON.stringify({ format: FORMAT, ...fetch })),
        ).catch(naming(fetchFile));
      })();
      pending.set(dir, writing);
      return writing;
    },
  };
}

// The crawl `astro-comments check` leaves for the build that may follow it, so that a scheduled
// build costs one crawl, not two. One file in the site's cache folder, beside the last-good copy:
// what the service answered, page by page, as the build's own crawl would have it, and the
// freshness state the check computed from it.
//
// One JSON line each, every line sealed with the integrity digest the comment modules use:
//   header   who may reuse it: generator, format, package version, domain, API URL, a keyed hash
//            of the token (never the token), when the crawl started
//   page     { page, threads } as served, in the order the answers arrived
//   trailer  how many pages there are, the crawl's figures, the state, and which pages of the
//            crawl hold each site page's threads
// The check writes it aside and renames it into place only after a complete crawl; a build reads
// it only when every line is whole, every page is there and the header matches its own settings.
// Pages are written as they arrive, so the check's memory stays what it was: one sum per page.
// The build decodes a page of the crawl only when it renders a site page the page holds: right
// after a check that found one new comment, that is one page of hundreds (the rest of the file
// was 280 of the 370 ms a 53,000-comment crawl took to read, decoding its UTF-8 for the most part).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createWriteStream, readFileSync, rmSync, type WriteStream } from "node:fs";
import { mkdir, readFile, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { finished } from "node:stream/promises";
import type { PageCollector } from "../api/crawl.ts";
import type { CrawlSummary } from "../api/crawl-comments.ts";
import type { Credentials } from "../api/credentials.ts";
import type { CommentThread } from "../api/generated/api-types.ts";
import { memoizedKeys } from "../render/path-key.ts";
import { integrityDigest } from "../utils/integrity-digest.ts";
import { pruneLeftoverTemps } from "../utils/leftover-temps.ts";
import { FreshnessStateCollector, type CompleteFreshnessState } from "./freshness-state.ts";

/** Changes whenever the lines below change shape; a file of another format is not reused. */
const FORMAT = 2;
const GENERATOR = "astro-comments check";

/** The file, in `cacheDir` (Astro's cacheDir, a path). */
export const checkCrawlFile = (cacheDir: string): string => join(cacheDir, "astro-comments", "check-crawl.jsonl");

interface Header {
  generator: typeof GENERATOR;
  format: typeof FORMAT;
  version: string;
  domain: string;
  endpoint: string;
  /** The HMAC key, random per file: the same token gives a different hash in every file. */
  tokenKey: string;
  tokenHash: string;
  crawledAt: string;
}

/** What the build prints and publishes of the check's crawl. */
export type CrawlFigures = Pick<CrawlSummary, "requests" | "perPage" | "bytes" | "pages">;

interface Trailer extends CrawlFigures {
  end: true;
  state: CompleteFreshnessState;
  /** By site page key (as the state's pages): the pages of the crawl that hold its threads. */
  index: Record<string, number[]>;
}

let packageVersion: string | undefined;
/** The installed package's version: a crawl written by another version is not reused. */
function ownVersion(): string {
  // src/freshness/ and dist/freshness/ both sit two folders below package.json.
  packageVersion ??= (
    JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
  ).version;
  return packageVersion;
}

const tokenHash = (key: string, token: string) => createHmac("sha256", key).update(token).digest("hex");

const sealed = (value: object) => {
  const json = JSON.stringify(value);
  return `${integrityDigest(json)} ${json}\n`;
};

const SPACE = 0x20;
const NEWLINE = 0x0a;
const COMMA = 0x2c;

/**
 * Whether the line at `start` to `end` of the file's bytes matches its seal. The seal is checked on
 * the bytes as written, so no line is decoded or encoded again to be hashed: the crawl of a large
 * site is tens of MiB.
 */
const intact = (bytes: Buffer, start: number, end: number): boolean =>
  end - start >= 17 &&
  bytes[start + 16] === SPACE &&
  integrityDigest(bytes.subarray(start + 17, end)) === bytes.toString("latin1", start, start + 16);

/** The value of an intact line's JSON; undefined when it is not JSON. */
function parseLine(bytes: Buffer, start: number, end: number): unknown {
  try {
    return JSON.parse(bytes.toString("utf8", start + 17, end)) as unknown;
  } catch {
    return undefined;
  }
}

/** The value of the sealed line at `start` to `end`; undefined when it does not match its seal. */
const unseal = (bytes: Buffer, start: number, end: number): unknown =>
  intact(bytes, start, end) ? parseLine(bytes, start, end) : undefined;

// How JSON.stringify begins a page line: its number is read from there, and the rest is decoded
// only when the build needs a site page it holds.
const PAGE_START = Buffer.from('{"page":');

/** The number of the page line at `start` (sealed, intact), or undefined when it is not a page line. */
function pageNumberOf(bytes: Buffer, start: number, end: number): number | undefined {
  const json = start + 17;
  if (!bytes.subarray(json, json + PAGE_START.length).equals(PAGE_START)) return undefined;
  let at = json + PAGE_START.length;
  let page = 0;
  while (at < end && bytes[at]! >= 0x30 && bytes[at]! <= 0x39 && page <= 1_000_000)
    page = page * 10 + bytes[at++]! - 0x30;
  return bytes[at] === COMMA && at > json + PAGE_START.length && page >= 1 && page <= 1_000_000 ? page : undefined;
}

/** Removes the file (a failed or starting check must not leave an earlier crawl looking fresh). */
export async function removeCheckCrawl(file: string): Promise<void> {
  await rm(file, { force: true });
}

interface OpenFile {
  stream: WriteStream;
  path: string;
  pages: number;
  index: Map<string, number[]>;
  error?: Error;
}

/**
 * Writes one check's crawl as it arrives. `collect` fits crawlComments: each crawl attempt starts
 * a new file aside (a crawl that starts over leaves nothing of the last attempt), and folds each
 * page into the freshness state as the check always did. `commit` puts the file in place.
 */
export class CheckCrawlWriter {
  readonly #file: string;
  readonly #header: Header;
  #attempt = 0;
  #out: OpenFile | undefined;

  constructor(file: string, credentials: Credentials, crawledAt: string) {
    this.#file = file;
    const tokenKey = randomBytes(16).toString("hex");
    this.#header = {
      generator: GENERATOR,
      format: FORMAT,
      version: ownVersion(),
      domain: credentials.domain,
      endpoint: credentials.endpoint.href,
      tokenKey,
      tokenHash: tokenHash(tokenKey, credentials.apiToken),
      crawledAt,
    };
  }

  #open(): OpenFile {
    const previous = this.#out;
    if (previous) {
      previous.stream.destroy();
      void rm(previous.path, { force: true });
    }
    const path = `${this.#file}.${process.pid}.${++this.#attempt}.tmp`;
    const stream = createWriteStream(path);
    const out: OpenFile = { stream, path, pages: 0, index: new Map() };
    // Recorded, not thrown: a full disk costs the build its shortcut, never the check its answer.
    stream.on("error", (error) => (out.error ??= error));
    stream.write(sealed(this.#header));
    this.#out = out;
    return out;
  }

  /** A collector for one crawl attempt: the state, and every page written as it arrives. */
  collect(): PageCollector<CompleteFreshnessState> {
    const state = new FreshnessStateCollector({ domain: this.#header.domain, crawledAt: this.#header.crawledAt });
    const keyOf = memoizedKeys();
    let out: OpenFile | undefined;
    return {
      add: (page, threads) => {
        out ??= this.#open();
        state.add(page, threads);
        out.pages++;
        for (const thread of threads) {
          const key = keyOf(thread.path);
          const pages = out.index.get(key);
          if (pages === undefined) out.index.set(key, [page]);
          else if (pages.at(-1) !== page) pages.push(page);
        }
        out.stream.write(sealed({ page, threads }));
      },
      finish: () => state.finish(),
    };
  }

  /** Ends the file with the crawl's figures and state and renames it into place. */
  async commit(state: CompleteFreshnessState, figures: CrawlFigures): Promise<void> {
    const out = this.#out;
    if (out === undefined) return;
    const trailer: Trailer = {
      end: true,
      ...figures,
      pages: out.pages,
      state,
      // In page order, as the build's own crawl gives the threads.
      index: Object.fromEntries([...out.index].map(([key, pages]) => [key, pages.sort((a, b) => a - b)])),
    };
    out.stream.end(sealed(trailer));
    try {
      await finished(out.stream);
      if (out.error) throw out.error;
      await rename(out.path, this.#file);
    } catch (error) {
      await rm(out.path, { force: true });
      throw error;
    }
  }

  /** Drops what was written (the crawl failed). */
  async abandon(): Promise<void> {
    const out = this.#out;
    if (out === undefined) return;
    out.stream.destroy();
    await rm(out.path, { force: true });
  }

  /**
   * Drops what was written, at once: a cancelled check (SIGTERM from a cancelled CI job) exits
   * before any promise could settle.
   */
  abandonNow(): void {
    const out = this.#out;
    if (out === undefined) return;
    out.stream.destroy();
    rmSync(out.path, { force: true });
  }

  /** Creates the file's folder and removes what killed checks left in it; call before the crawl. */
  async prepare(): Promise<void> {
    await mkdir(dirname(this.#file), { recursive: true });
    await pruneLeftoverTemps(dirname(this.#file));
  }
}

/**
 * The threads of a check's crawl, decoded a page of the crawl at a time and only when asked for.
 * Holds the file's bytes (every line already checked against its seal) until it is let go.
 */
export class CrawlThreads {
  readonly #bytes: Buffer;
  /** Where each page of the crawl is in the bytes, by page number − 1. */
  readonly #lines: readonly (readonly [number, number])[];
  readonly #index: Readonly<Record<string, readonly number[]>>;
  /** Each decoded page of the crawl, its threads by site page key. */
  readonly #decoded = new Map<number, Map<string, CommentThread[]>>();
  readonly #keyOf = memoizedKeys();

  // Uint8Array, not Buffer, in its signature: the published types must not need @types/node.
  constructor(bytes: Uint8Array, lines: readonly (readonly [number, number])[], index: Record<string, number[]>) {
    this.#bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#lines = lines;
    this.#index = index;
  }

  /** The threads of one site page (a key of the state's pages), in the order they were served. */
  of(key: string): CommentThread[] {
    const pages = Object.hasOwn(this.#index, key) ? this.#index[key]! : [];
    return pages.flatMap((page) => this.#page(page).get(key) ?? []);
  }

  /** Every thread, in the order they were served. */
  all(): CommentThread[] {
    return this.#lines.flatMap((_, at) => this.#threads(at + 1));
  }

  #threads(page: number): CommentThread[] {
    const [start, end] = this.#lines[page - 1]!;
    // Sealed when the file was read: a line that is not what the check wrote was refused then.
    return (parseLine(this.#bytes, start, end) as { threads: CommentThread[] }).threads;
  }

  #page(page: number): Map<string, CommentThread[]> {
    let byKey = this.#decoded.get(page);
    if (byKey === undefined) {
      byKey = new Map();
      for (const thread of this.#threads(page)) {
        const key = this.#keyOf(thread.path);
        const held = byKey.get(key);
        if (held === undefined) byKey.set(key, [thread]);
        else held.push(thread);
      }
      this.#decoded.set(page, byKey);
    }
    return byKey;
  }
}

export type CheckCrawl =
  /** No file: no check ran, or its crawl failed. */
  | { kind: "none" }
  /** A file that must not be reused, and why (one clause, for one info line). */
  | { kind: "ignored"; why: string }
  | {
      kind: "fresh";
      threads: CrawlThreads;
      state: CompleteFreshnessState;
      crawledAt: string;
      ageMs: number;
      figures: CrawlFigures;
    };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function foreign(header: Record<string, unknown>, credentials: Credentials): string | undefined {
  if (header.generator !== GENERATOR || header.format !== FORMAT) return "it is of another format";
  if (header.version !== ownVersion()) return `it was written by astro-comments ${String(header.version)}`;
  if (header.domain !== credentials.domain) return "it is of another domain";
  if (header.endpoint !== credentials.endpoint.href) return "it is of another API URL";
  if (typeof header.tokenKey !== "string" || typeof header.tokenHash !== "string") return "it is of another format";
  const mine = Buffer.from(tokenHash(header.tokenKey, credentials.apiToken), "hex");
  const theirs = Buffer.from(header.tokenHash, "hex");
  if (mine.length !== theirs.length || !timingSafeEqual(mine, theirs)) return "it was made with another API token";
  return undefined;
}

/**
 * Whether the index names, for every page of the state and no other, pages of the crawl that
 * exist: a site page left out would be built with none of its comments.
 */
function indexFits(index: unknown, state: CompleteFreshnessState, pages: number): index is Record<string, number[]> {
  if (!isRecord(index)) return false;
  const keys = Object.keys(index);
  if (keys.length !== Object.keys(state.pages).length) return false;
  return keys.every(
    (key) =>
      Object.hasOwn(state.pages, key) &&
      Array.isArray(index[key]) &&
      index[key].length > 0 &&
      index[key].every((page) => Number.isSafeInteger(page) && page >= 1 && page <= pages),
  );
}

const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;

/**
 * The check's crawl in `file`, when it was made for these credentials by this version no longer
 * than `maxAgeMs` ago and is whole; otherwise why not. `now` is the clock (tests inject one).
 */
export async function readCheckCrawl(
  file: string,
  credentials: Credentials,
  maxAgeMs: number,
  now: number = Date.now(),
): Promise<CheckCrawl> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "none" };
    return { kind: "ignored", why: `it cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})` };
  }
  let at = bytes.indexOf(NEWLINE);
  const header = unseal(bytes, 0, at < 0 ? bytes.length : at);
  if (!isRecord(header)) return { kind: "ignored", why: "it is damaged (its first line does not match its seal)" };
  const isForeign = foreign(header, credentials);
  if (isForeign) return { kind: "ignored", why: isForeign };
  const crawledAt = typeof header.crawledAt === "string" ? Date.parse(header.crawledAt) : Number.NaN;
  if (Number.isNaN(crawledAt)) return { kind: "ignored", why: "it is of another format" };
  const ageMs = now - crawledAt;
  // A minute of clock skew between the check's machine and the build's is forgiven.
  if (ageMs < -60_000) return { kind: "ignored", why: "it claims to be from the future" };
  if (ageMs > maxAgeMs)
    return { kind: "ignored", why: `it is ${minutes(ageMs)} old, more than reuseCheckMinutes allows` };

  const lines: [number, number][] = [];
  let trailer: Record<string, unknown> | undefined;
  let line = 1;
  while (at >= 0 && at < bytes.length - 1) {
    const start = at + 1;
    const next = bytes.indexOf(NEWLINE, start);
    const end = next < 0 ? bytes.length : next;
    line++;
    at = next;
    if (trailer !== undefined) return { kind: "ignored", why: "it is damaged (lines after its end)" };
    if (!intact(bytes, start, end))
      return { kind: "ignored", why: `it is damaged (line ${line} does not match its seal)` };
    const page = pageNumberOf(bytes, start, end);
    if (page !== undefined && lines[page - 1] === undefined) lines[page - 1] = [start, end];
    else {
      const value = page === undefined ? parseLine(bytes, start, end) : undefined;
      if (!isRecord(value) || value.end !== true)
        return { kind: "ignored", why: `it is damaged (line ${line} is not a page of the crawl)` };
      trailer = value;
    }
  }
  if (trailer === undefined) return { kind: "ignored", why: "it is cut short (it has no end)" };
  const figures = trailer as unknown as Trailer;
  let held = 0;
  for (const page of lines) if (page !== undefined) held++;
  if (held !== figures.pages || lines.length !== figures.pages)
    return { kind: "ignored", why: `it is partial (${held} of ${String(figures.pages)} pages)` };
  const state = figures.state;
  if (!isRecord(state) || state.complete !== true || state.domain !== credentials.domain || !isRecord(state.pages))
    return { kind: "ignored", why: "it is damaged (its state is not a complete state of this domain)" };
  if (!indexFits(figures.index, state, held))
    return { kind: "ignored", why: "it is damaged (its index does not fit its state)" };
  return {
    kind: "fresh",
    threads: new CrawlThreads(bytes, lines, figures.index),
    state,
    crawledAt: header.crawledAt as string,
    ageMs: Math.max(0, ageMs),
    figures: { requests: figures.requests, perPage: figures.perPage, bytes: figures.bytes, pages: figures.pages },
  };
}

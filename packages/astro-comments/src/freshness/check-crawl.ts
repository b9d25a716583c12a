// The crawl `astro-comments check` leaves for the build that may follow it, so that a scheduled
// build costs one crawl, not two. One file in the site's cache folder, beside the last-good copy:
// what the service answered, page by page, as the build's own crawl would have it, and the
// freshness state the check computed from it.
//
// One JSON line each, every line sealed with the integrity digest the comment modules use:
//   header   who may reuse it: generator, format, package version, domain, API URL, a keyed hash
//            of the token (never the token), when the crawl started
//   page     { page, threads } as served, in the order the answers arrived
//   trailer  how many pages and threads there are, the crawl's figures, the state
// The check writes it aside and renames it into place only after a complete crawl; a build reads
// it only when every line is whole, every page is there and the header matches its own settings.
// Pages are written as they arrive, so the check's memory stays what it was: one sum per page.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createWriteStream, readFileSync, rmSync, type WriteStream } from "node:fs";
import { mkdir, readFile, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { finished } from "node:stream/promises";
import type { PageCollector } from "../api/crawl.ts";
import type { CrawlSummary } from "../api/crawl-comments.ts";
import type { Credentials } from "../api/credentials.ts";
import type { CommentThread } from "../api/generated/api-types.ts";
import { integrityDigest } from "../utils/integrity-digest.ts";
import { pruneLeftoverTemps } from "../utils/leftover-temps.ts";
import { FreshnessStateCollector, type CompleteFreshnessState } from "./freshness-state.ts";

/** Changes whenever the lines below change shape; a file of another format is not reused. */
const FORMAT = 1;
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
  threads: number;
  state: CompleteFreshnessState;
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

/**
 * The value of the sealed line at `start` to `end` of the file's bytes; undefined when the line does
 * not match its seal. The seal is checked on the bytes as written, so the file is never decoded as
 * a whole and no line is encoded again to be hashed: the crawl of a large site is tens of MiB.
 */
function unseal(bytes: Buffer, start: number, end: number): unknown {
  if (end - start < 17 || bytes[start + 16] !== SPACE) return undefined;
  const json = bytes.subarray(start + 17, end);
  if (integrityDigest(json) !== bytes.toString("latin1", start, start + 16)) return undefined;
  try {
    return JSON.parse(json.toString("utf8")) as unknown;
  } catch {
    return undefined;
  }
}

/** Removes the file (a failed or starting check must not leave an earlier crawl looking fresh). */
export async function removeCheckCrawl(file: string): Promise<void> {
  await rm(file, { force: true });
}

interface OpenFile {
  stream: WriteStream;
  path: string;
  pages: number;
  threads: number;
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
    const out: OpenFile = { stream, path, pages: 0, threads: 0 };
    // Recorded, not thrown: a full disk costs the build its shortcut, never the check its answer.
    stream.on("error", (error) => (out.error ??= error));
    stream.write(sealed(this.#header));
    this.#out = out;
    return out;
  }

  /** A collector for one crawl attempt: the state, and every page written as it arrives. */
  collect(): PageCollector<CompleteFreshnessState> {
    const state = new FreshnessStateCollector({ domain: this.#header.domain, crawledAt: this.#header.crawledAt });
    let out: OpenFile | undefined;
    return {
      add: (page, threads) => {
        out ??= this.#open();
        state.add(page, threads);
        out.pages++;
        out.threads += threads.length;
        out.stream.write(sealed({ page, threads }));
      },
      finish: () => state.finish(),
    };
  }

  /** Ends the file with the crawl's figures and state and renames it into place. */
  async commit(state: CompleteFreshnessState, figures: CrawlFigures): Promise<void> {
    const out = this.#out;
    if (out === undefined) return;
    const trailer: Trailer = { end: true, ...figures, pages: out.pages, threads: out.threads, state };
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

export type CheckCrawl =
  /** No file: no check ran, or its crawl failed. */
  | { kind: "none" }
  /** A file that must not be reused, and why (one clause, for one info line). */
  | { kind: "ignored"; why: string }
  | {
      kind: "fresh";
      threads: CommentThread[];
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

const isPage = (
  value: Record<string, unknown>,
  pages: unknown[],
): value is { page: number; threads: CommentThread[] } =>
  Number.isSafeInteger(value.page) &&
  (value.page as number) >= 1 &&
  (value.page as number) <= 1_000_000 &&
  Array.isArray(value.threads) &&
  pages[(value.page as number) - 1] === undefined;

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

  const pages: CommentThread[][] = [];
  let trailer: Trailer | undefined;
  let line = 1;
  while (at >= 0 && at < bytes.length - 1) {
    const next = bytes.indexOf(NEWLINE, at + 1);
    const value = unseal(bytes, at + 1, next < 0 ? bytes.length : next);
    line++;
    at = next;
    if (trailer !== undefined) return { kind: "ignored", why: "it is damaged (lines after its end)" };
    if (!isRecord(value)) return { kind: "ignored", why: `it is damaged (line ${line} does not match its seal)` };
    if (value.end === true) trailer = value as unknown as Trailer;
    else if (isPage(value, pages)) pages[value.page - 1] = value.threads;
    else return { kind: "ignored", why: `it is damaged (line ${line} is not a page of the crawl)` };
  }
  if (trailer === undefined) return { kind: "ignored", why: "it is cut short (it has no end)" };
  const threads = pages.flat();
  let held = 0;
  for (const page of pages) if (page !== undefined) held++;
  if (held !== trailer.pages || pages.length !== trailer.pages || threads.length !== trailer.threads)
    return { kind: "ignored", why: `it is partial (${held} of ${trailer.pages} pages)` };
  const state = trailer.state;
  if (!isRecord(state) || state.complete !== true || state.domain !== credentials.domain)
    return { kind: "ignored", why: "it is damaged (its state is not a complete state of this domain)" };
  return {
    kind: "fresh",
    threads,
    state,
    crawledAt: header.crawledAt as string,
    ageMs: Math.max(0, ageMs),
    figures: { requests: trailer.requests, perPage: trailer.perPage, bytes: trailer.bytes, pages: trailer.pages },
  };
}

// What a build shows, reduced to digests: the published state (feeds.state) and the freshness
// check both make it from a crawl, so comparing the two answers "did the approved comments change
// since that build?". Pure apart from hashing: no I/O.
//
// A digest must not depend on how the service paged the comments (per_page, the order of
// comments that share a timestamp) and must count identical twins twice. So a thread is hashed
// canonically (its fields and its replies' hashes, sorted), and a page's digest is the SUM of its
// threads' hashes modulo 2^256: a multiset hash, folded in as each page of the crawl arrives,
// keeping one number per page and no comment. XOR would let twins cancel out; a sum does not.
import { hash } from "node:crypto";
import type { CommentReply, CommentThread } from "../api/generated/api-types.ts";
import { memoizedKeys } from "../render/path-key.ts";

/** Changes whenever the canonical hashing or the shape below changes; a check of another format builds. */
export const STATE_FORMAT = 1;

export interface PageState {
  /** Approved comments on the page, replies included. */
  count: number;
  /** 64 hex digits: the multiset hash of the page's threads. */
  digest: string;
}

/** A state made from a complete crawl: what the build showed, page by page. */
export interface CompleteFreshnessState {
  format: typeof STATE_FORMAT;
  generator: "astro-comments";
  domain: string;
  /** When the comments were crawled, ISO 8601. */
  crawledAt: string;
  complete: true;
  /** Approved comments of the domain, replies included. */
  comments: number;
  /** 64 hex digits over every page's path, count and digest. */
  digest: string;
  /**
   * By the service's own path as a page key (pathKey: no site settings, so no aliases), sorted. A
   * check cannot know the site's aliases without starting Astro; the service's paths it can.
   */
  pages: Record<string, PageState>;
}

/**
 * A build that showed an earlier fetch's comments because its own fetch failed: it may lack any
 * number of approved comments, so no check may call it current.
 */
interface IncompleteFreshnessState {
  format: typeof STATE_FORMAT;
  generator: "astro-comments";
  domain: string;
  /** When the comments shown were fetched, if known. */
  crawledAt: string | null;
  complete: false;
}

export type FreshnessState = CompleteFreshnessState | IncompleteFreshnessState;

/** What a state says besides the comments. */
export interface StateInfo {
  domain: string;
  crawledAt: string;
}

const MODULUS_MASK = (1n << 256n) - 1n;

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const sha256 = (text: string) => hash("sha256", text);

// The fields a build renders, as served; JSON of an array of strings is unambiguous.
const fields = (comment: Pick<CommentReply, "created_at" | "name" | "path" | "content" | "html">) =>
  JSON.stringify([comment.created_at, comment.name, comment.path, comment.content, comment.html]);

/** A thread's hash: its own fields and its replies' hashes in sorted order (twins kept). */
function threadHash(thread: CommentThread): string {
  const replies = thread.children.map((reply) => sha256(fields(reply))).sort();
  return sha256(`${fields(thread)}\n${replies.join("\n")}`);
}

interface PageSum {
  count: number;
  sum: bigint;
}

const addThread = (sum: bigint, thread: CommentThread) => (sum + BigInt(`0x${threadHash(thread)}`)) & MODULUS_MASK;

const sumHex = (sum: bigint) => sum.toString(16).padStart(64, "0");

/**
 * The digest of one page's threads, as a state's `pages[key].digest` holds it: whatever order or
 * page of the crawl they came in, the same comments give the same digest.
 */
export function threadsDigest(threads: Iterable<CommentThread>): string {
  let sum = 0n;
  for (const thread of threads) sum = addThread(sum, thread);
  return sumHex(sum);
}

/**
 * Folds the pages of one crawl into a state as they arrive, in any order, keeping one sum per
 * site page: memory grows with the site's pages, not with its comments. Fits the crawl's
 * PageCollector (one instance per crawl attempt).
 */
export class FreshnessStateCollector {
  readonly #info: StateInfo;
  readonly #pages = new Map<string, PageSum>();
  /** Path as served → page key: a page's threads repeat its path, and pathKey is as dear as the hash. */
  readonly #keyOf = memoizedKeys();

  constructor(info: StateInfo) {
    this.#info = info;
  }

  add(_page: number, threads: Iterable<CommentThread>): void {
    for (const thread of threads) {
      const key = this.#keyOf(thread.path);
      const page = this.#pages.get(key) ?? { count: 0, sum: 0n };
      page.count += 1 + thread.children.length;
      page.sum = addThread(page.sum, thread);
      this.#pages.set(key, page);
    }
  }

  finish(): CompleteFreshnessState {
    const keys = [...this.#pages.keys()].sort(compareText);
    const pages: Record<string, PageState> = {};
    let comments = 0;
    for (const key of keys) {
      const { count, sum } = this.#pages.get(key)!;
      pages[key] = { count, digest: sumHex(sum) };
      comments += count;
    }
    const digest = sha256(
      keys.map((key) => `${JSON.stringify(key)} ${pages[key]!.count} ${pages[key]!.digest}`).join("\n"),
    );
    return {
      format: STATE_FORMAT,
      generator: "astro-comments",
      domain: this.#info.domain,
      crawledAt: this.#info.crawledAt,
      complete: true,
      comments,
      digest,
      pages,
    };
  }
}

/**
 * The state of threads held all at once (a crawl folds its pages in with FreshnessStateCollector instead).
 *
 * @example
 * const state = freshnessStateOf(threads, { domain: "example.com", crawledAt: new Date().toISOString() });
 */
export function freshnessStateOf(threads: Iterable<CommentThread>, info: StateInfo): CompleteFreshnessState {
  const collector = new FreshnessStateCollector(info);
  collector.add(1, threads);
  return collector.finish();
}

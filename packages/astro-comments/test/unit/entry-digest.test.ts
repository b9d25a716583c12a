import { describe, expect, it } from "vitest";
import type { CommentThread } from "../../src/api/generated/api-types.ts";
import { freshnessStateOf } from "../../src/freshness/freshness-state.ts";
import { entryDigest } from "../../src/loader/entry-digest.ts";
import { countComments, groupThreadsByPage } from "../../src/render/comment-tree.ts";
import { at, reply, thread } from "../helpers/api-threads.ts";

const page = (): CommentThread[] => [
  thread("/posts/a", "Ann", 1, [reply("/posts/a", "Bob", 2), reply("/posts/a", "Cy", 2)]),
  thread("/posts/a/", "Dee", 1),
  thread("/posts/a", "Eve", 3),
  thread("/posts/a", "Eve", 3),
];

/** A page's digest as the loader takes it from a crawl: the state's, when the crawl computed one. */
function digests(threads: CommentThread[], version = "1") {
  const state = freshnessStateOf(threads, { domain: "example.com", crawledAt: at(0) });
  const [[key, pageThreads]] = [...groupThreadsByPage(threads)] as [[string, CommentThread[]]];
  const count = countComments(pageThreads);
  return {
    fromThreads: entryDigest(version, pageThreads, count),
    fromCrawl: entryDigest(version, pageThreads, count, state.pages[key]),
  };
}

describe("a page's digest", () => {
  it("is the same from the crawl's state as from the threads, so a build after a check and a plain build reuse each other's pages", () => {
    const { fromThreads, fromCrawl } = digests(page());
    expect(fromCrawl).toMatch(/^[0-9a-f]{16}$/);
    expect(fromCrawl).toBe(fromThreads);
  });

  it("does not depend on the order the service sent the threads and replies in", () => {
    const shuffled = page().reverse();
    shuffled[shuffled.length - 1]!.children.reverse();
    expect(digests(shuffled)).toEqual(digests(page()));
  });

  it("changes with every field a page shows, with where a reply sits, with twins and with the renderer's version", () => {
    const base = digests(page()).fromThreads;
    const changed: CommentThread[][] = [];
    for (const field of ["name", "created_at", "content", "html", "path"] as const) {
      const threads = page();
      threads[1]![field] = field === "created_at" ? at(9) : field === "path" ? "/posts/a//" : `${threads[1]![field]}!`;
      changed.push(threads);
      const replies = page();
      replies[0]!.children[1]![field] = field === "created_at" ? at(9) : field === "path" ? "/posts/a/" : "other";
      changed.push(replies);
    }
    const moved = page();
    moved[2]!.children.push(moved[0]!.children.pop()!);
    changed.push(moved, page().slice(0, -1));
    const seen = new Set([base, digests(page(), "2").fromThreads]);
    for (const threads of changed) {
      const { fromThreads, fromCrawl } = digests(threads);
      expect(fromCrawl).toBe(fromThreads);
      seen.add(fromThreads);
    }
    expect(seen.size).toBe(2 + changed.length);
  });

  it("is made from the threads when the crawl's count for the page is not theirs (a page that merges aliases)", () => {
    const threads = page();
    const state = freshnessStateOf(threads.slice(1), { domain: "example.com", crawledAt: at(0) });
    const count = countComments(threads);
    expect(entryDigest("1", threads, count, state.pages["/posts/a"])).toBe(entryDigest("1", threads, count));
  });
});

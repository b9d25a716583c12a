import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CommentThread } from "../../src/api/generated/api-types.ts";
import {
  freshnessStateOf,
  FreshnessStateCollector,
  type CompleteFreshnessState,
} from "../../src/freshness/freshness-state.ts";
import { compareStates, parseState, StateUnusable, usableState } from "../../src/freshness/compare-states.ts";
import { publishedState } from "../../src/integration/virtual-modules.ts";
import { reply, thread } from "../helpers/api-threads.ts";

const info = { domain: "example.com", crawledAt: "2026-11-24T21:00:00.000Z" };
const site = (): CommentThread[] => [
  thread("/posts/a", "Ann", 1, [reply("/posts/a", "Bob", 2), reply("/posts/a", "Cy", 2)]),
  thread("/posts/a/", "Dee", 1),
  thread("/posts/b", "Eve", 3),
  thread("/posts/b", "Eve", 3),
  thread("/posts/c", "Fay", 3, [reply("/posts/c", "Gus", 4)]),
];

/** The threads served as a crawl would: in this order, `perPage` top-level comments a page. */
function crawled(
  threads: CommentThread[],
  perPage: number,
  arrival: (pages: number[]) => number[] = (pages) => pages,
): CompleteFreshnessState {
  const collector = new FreshnessStateCollector(info);
  const pages = Array.from({ length: Math.ceil(threads.length / perPage) }, (_, i) => i + 1);
  for (const page of arrival(pages)) collector.add(page, threads.slice((page - 1) * perPage, page * perPage));
  return collector.finish();
}

describe("the comments state", () => {
  it("holds a count and a digest per page (by page key), the total and no comment text", () => {
    const state = freshnessStateOf(site(), info);
    expect(Object.fromEntries(Object.entries(state.pages).map(([key, page]) => [key, page.count]))).toEqual({
      "/posts/a": 4,
      "/posts/b": 2,
      "/posts/c": 2,
    });
    expect(state).toMatchObject({
      format: 1,
      generator: "astro-comments",
      domain: "example.com",
      crawledAt: info.crawledAt,
      complete: true,
      comments: 8,
    });
    expect(state.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(state)).not.toMatch(/says|replies|Ann/);
  });

  it("does not depend on paging, the order of tied comments or the order pages arrive in", () => {
    const reference = freshnessStateOf(site(), info);
    fc.assert(
      fc.property(
        fc.shuffledSubarray(site(), { minLength: 5, maxLength: 5 }),
        fc.integer({ min: 1, max: 5 }),
        fc.boolean(),
        (threads, perPage, reversed) => {
          const withReplies = threads.map((t) => ({ ...t, children: [...t.children].reverse() }));
          expect(crawled(withReplies, perPage, (pages) => (reversed ? pages.reverse() : pages))).toEqual(reference);
        },
      ),
    );
  });

  it("counts identical twins twice, among threads and among replies", () => {
    const [ann] = site();
    const once = freshnessStateOf([ann!], info);
    const twice = freshnessStateOf([ann!, ann!], info);
    const twinReply = freshnessStateOf([{ ...ann!, children: [...ann!.children, ann!.children[0]!] }], info);
    expect(twice.pages["/posts/a"]!.count).toBe(6);
    expect(new Set([once.digest, twice.digest, twinReply.digest]).size).toBe(3);
    // Four copies are not two: the sum does not wrap into an earlier state the way XOR would.
    expect(freshnessStateOf([ann!, ann!, ann!, ann!], info).pages["/posts/a"]!.digest).not.toBe(
      twice.pages["/posts/a"]!.digest,
    );
  });

  it("changes with an approved reply on an old thread, an edit or a moved path, and only on that page", () => {
    const before = freshnessStateOf(site(), info);
    const edits: Array<(threads: CommentThread[]) => void> = [
      (threads) => threads[4]!.children.push(reply("/posts/c", "Hal", 59)),
      (threads) => (threads[4]!.html = "<p>Fay says (edited)</p>\n"),
      (threads) => (threads[4]!.path = "/posts/c/"),
    ];
    for (const edit of edits) {
      const threads = site();
      edit(threads);
      const after = freshnessStateOf(threads, info);
      expect(after.digest).not.toBe(before.digest);
      expect(after.pages["/posts/a"]).toEqual(before.pages["/posts/a"]);
      expect(after.pages["/posts/c"]!.digest).not.toBe(before.pages["/posts/c"]!.digest);
    }
  });
});

describe("comparing with the deployed state", () => {
  const deployed = freshnessStateOf(site(), info);
  const where = "https://example.com/comments/state.json";

  it("says nothing changed, with the deployed crawl's time", () => {
    expect(
      compareStates(deployed, freshnessStateOf(site().reverse(), { ...info, crawledAt: "2026-11-25T09:00:00.000Z" })),
    ).toEqual({
      changed: false,
      line: "astro-comments: no approved comment changed since the deployed build's crawl at 2026-11-24 21:00 UTC (8 comments on 3 pages); nothing to build.",
    });
  });

  it("names the pages with new comments and how many", () => {
    const threads = [...site(), thread("/posts/b", "Ivy", 50), thread("/posts/new", "Jo", 51)];
    threads[0]!.children.push(reply("/posts/a", "Kim", 52));
    expect(compareStates(deployed, freshnessStateOf(threads, info))).toEqual({
      changed: true,
      line: "astro-comments: 3 pages have new comments since the deployed build's crawl at 2026-11-24 21:00 UTC: /posts/a (+1), /posts/b (+1), /posts/new (+1); build.",
    });
  });

  it("names removed and edited comments too, and lists at most ten pages", () => {
    const threads = site().filter((t) => t.name !== "Dee");
    threads[3]!.content = "Fay edited";
    expect(compareStates(deployed, freshnessStateOf(threads, info)).line).toBe(
      "astro-comments: the comments of 2 pages changed since the deployed build's crawl at 2026-11-24 21:00 UTC: /posts/a (-1), /posts/c (changed); build.",
    );
    const many = Array.from({ length: 13 }, (_, i) => thread(`/p/${String(i).padStart(2, "0")}`, "Lu"));
    expect(compareStates(deployed, freshnessStateOf([...site(), ...many], info)).line).toMatch(
      /: 13 pages have new comments .*\/p\/09 \(\+1\), and 3 more; build\.$/,
    );
  });

  it("reads a state back from its JSON and refuses what it cannot compare, in one line", () => {
    expect(parseState(JSON.stringify(deployed), where)).toEqual(deployed);
    const unusable = (text: string, domain = "example.com") => {
      try {
        usableState(parseState(text, where), domain, where);
      } catch (error) {
        expect(error).toBeInstanceOf(StateUnusable);
        return (error as Error).message;
      }
      throw new Error("the state was accepted");
    };
    expect(unusable("<!doctype html><title>Not found</title>")).toBe(`the deployed state at ${where} is not JSON`);
    expect(unusable('{"hello":1}')).toBe(`${where} holds no astro-comments state`);
    expect(unusable(JSON.stringify({ ...deployed, format: 2 }))).toBe(
      `the deployed state at ${where} has format 2, and this astro-comments reads format 1 (the site was built with another version)`,
    );
    expect(unusable(JSON.stringify(deployed), "example.org")).toBe(
      `the deployed state at ${where} is of example.com, not example.org`,
    );
    expect(unusable(JSON.stringify({ ...deployed, pages: { "/x": { count: 1 } } }))).toBe(
      `the deployed state at ${where} is damaged (a field is missing or malformed)`,
    );
    expect(
      unusable(
        JSON.stringify({
          format: 1,
          generator: "astro-comments",
          domain: "example.com",
          crawledAt: "2026-11-20T08:00:00.000Z",
          complete: false,
        }),
      ),
    ).toBe(
      "the deployed build showed an earlier fetch's comments (as of 2026-11-20 08:00 UTC) because its own fetch failed, so it may lack approved comments",
    );
  });
});

describe("the state a build publishes", () => {
  const options = { credentials: { domain: "example.com" } } as Parameters<typeof publishedState>[0]["options"];
  const state = freshnessStateOf(site(), info);

  it("is the crawl's state when the build shows that crawl", () => {
    expect(publishedState({ options, crawlState: state, status: { fetchedAt: info.crawledAt, stale: false } })).toBe(
      state,
    );
  });

  it("is incomplete when the build fell back to earlier comments, so no check calls it current", () => {
    const fellBack = publishedState({
      options,
      crawlState: state,
      status: { fetchedAt: "2026-11-20T08:00:00.000Z", stale: true, error: "down" },
    });
    expect(fellBack).toEqual({
      format: 1,
      generator: "astro-comments",
      domain: "example.com",
      crawledAt: "2026-11-20T08:00:00.000Z",
      complete: false,
    });
    expect(() => usableState(parseState(JSON.stringify(fellBack), "state.json"), "example.com", "state.json")).toThrow(
      StateUnusable,
    );
    expect(publishedState({ options, status: { fetchedAt: null, stale: true } }).complete).toBe(false);
  });
});

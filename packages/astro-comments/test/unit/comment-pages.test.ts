// Which comment lands on which comment page, and the URL every link to it uses (render/comment-pages.ts).
import { describe, expect, it } from "vitest";
import type { StoredComment } from "../../src/loader/entry-schema.ts";
import {
  commentElements,
  commentHrefs,
  fitsOnePage,
  freshFirstPage,
  navItems,
  paginateComments,
  postHref,
  type PagesSettings,
} from "../../src/render/comment-pages.ts";
import { storedComment as comment } from "../helpers/stored-comments.ts";

const settings: PagesSettings = { size: 10, route: "/comments", base: "/", trailingSlash: true, movedLinks: false };

const ids = (page: { comments: StoredComment[] }) =>
  page.comments.flatMap((c) => [c.id, ...c.replies.map((reply) => reply.id)]);

describe("paginateComments", () => {
  it("keeps a post within the budget on one page, its comments as they were", () => {
    const comments = [comment("a", 4), comment("b", 4)];
    const { pages, threads } = paginateComments("/posts/x", "/posts/x/", comments, settings);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.comments).toEqual(comments);
    expect(threads.size).toBe(0);
  });

  it("fills pages with whole threads up to the budget, and under the base", () => {
    const comments = [comment("a", 3), comment("b", 3), comment("c", 3), comment("d")];
    const { pages } = paginateComments("/docs/posts/x", "/docs/posts/x/", comments, { ...settings, base: "/docs/" });
    expect(pages.map(ids)).toEqual([
      ["a", "a-r0", "a-r1", "a-r2", "b", "b-r0", "b-r1", "b-r2"],
      ["c", "c-r0", "c-r1", "c-r2", "d"],
    ]);
    expect(pages.map((page) => page.href)).toEqual(["/docs/posts/x/", "/docs/comments/posts/x/page/2/"]);
  });

  it("splits a thread over the budget: its first replies and a link where it starts, the rest on its pages under its parent", () => {
    const { pages, threads } = paginateComments("/", "/", [comment("a", 25)], settings);
    expect(pages).toHaveLength(1);
    expect(ids(pages[0]!)).toEqual(["a", "a-r0"]);
    expect(pages[0]!.comments[0]!.more).toEqual({ count: 24, href: "/comments/index/thread/a/2/" });
    const own = threads.get("a")!;
    expect(own.map((page) => page.href)).toEqual([
      "/#a",
      "/comments/index/thread/a/2/",
      "/comments/index/thread/a/3/",
      "/comments/index/thread/a/4/",
    ]);
    expect(own.slice(1).map((page) => page.comments[0]!.replies.length)).toEqual([9, 9, 6]);
    expect(own.slice(1).every((page) => page.comments[0]!.id === "a")).toBe(true);
  });
});

describe("commentHrefs", () => {
  it("gives every comment exactly one URL, on the page that shows it", () => {
    const comments = [comment("a", 25), comment("b", 2), comment("c", 8)];
    const pagination = paginateComments("/posts/x", "/posts/x/", comments, { ...settings, trailingSlash: false });
    const hrefs = commentHrefs(pagination);
    expect(hrefs.size).toBe(comments.reduce((n, c) => n + 1 + c.replies.length, 0));
    expect(hrefs.get("a")).toBe("/posts/x/#a");
    expect(hrefs.get("a-r0")).toBe("/posts/x/#a-r0");
    expect(hrefs.get("a-r1")).toBe("/comments/posts/x/thread/a/2#a-r1");
    expect(hrefs.get("c-r7")).toBe("/comments/posts/x/page/2#c-r7");
  });
});

// A body of 30 elements: with its frame, a comment of 37 (size 10 gives a page 120 elements of comments).
const heavy = `<pre>${"<span>x</span>".repeat(29)}</pre>`;
const weighty = (id: string, replies = 0): StoredComment => {
  const base = comment(id, replies);
  return { ...base, html: heavy, replies: base.replies.map((reply) => ({ ...reply, html: heavy })) };
};

describe("paginateComments by weight", () => {
  it("counts a comment's frame and every element of its body, not text that looks like a tag", () => {
    expect(commentElements("<p>Short.</p>")).toBe(8);
    expect(commentElements('<p>One <a href="https://example.com/">link</a> &lt;b&gt; a < b</p><p>Two</p>')).toBe(10);
    expect(commentElements(heavy)).toBe(37);
  });

  it("fills the pages of a split post with as many heavy comments as their elements allow", () => {
    const comments = Array.from({ length: 12 }, (_, i) => weighty(`c${i}`));
    const { pages } = paginateComments("/posts/x", "/posts/x/", comments, settings);
    expect(pages.map((page) => page.comments.length)).toEqual([3, 3, 3, 3]);
  });

  it("splits a post of at most `size` comments when they weigh more than a page", () => {
    const comments = Array.from({ length: 10 }, (_, i) => weighty(`c${i}`));
    expect(fitsOnePage(comments, settings.size)).toBe(false);
    const { pages, threads } = paginateComments("/posts/x", "/posts/x/", comments, settings);
    expect(pages.map((page) => page.comments.length)).toEqual([3, 3, 3, 1]);
    expect(threads.size).toBe(0);
  });

  it("keeps a post on one page while its comments fit: at most `size`, weighing at most a page", () => {
    // 3 heavy (111 elements) and 1 short (8): 119 of the 120 a page of size 10 holds.
    const comments = [weighty("a"), weighty("b"), weighty("c"), comment("d")];
    expect(fitsOnePage(comments, settings.size)).toBe(true);
    expect(paginateComments("/posts/x", "/posts/x/", comments, settings).pages).toHaveLength(1);
    expect(fitsOnePage([...comments, comment("e")], settings.size)).toBe(false);
    expect(fitsOnePage([comment("a", 9), comment("b")], settings.size)).toBe(false);
  });

  it("weighs a post as its pages are weighed, each thread's list of replies included", () => {
    // A comment of `n` elements: its frame (7) and n - 7 of its body's.
    const weighing = (n: number) => "<b>x</b>".repeat(n - 7);
    const thread = { ...comment("a", 1), html: weighing(60) };
    thread.replies[0]!.html = weighing(53);
    // 60 + 53 + 7 = 120 elements of comments, and 1 more for a's list of replies: over the 120 of size 10.
    const comments = [thread, { ...comment("b"), html: "" }];
    expect(fitsOnePage(comments, settings.size)).toBe(false);
    expect(paginateComments("/posts/x", "/posts/x/", comments, settings).pages.map(ids)).toEqual([
      ["a", "a-r0"],
      ["b"],
    ]);
    expect(fitsOnePage(comments.slice(0, 1), settings.size)).toBe(true);
  });

  it("gives a thread of few but heavy replies its own pages, each within the budget", () => {
    const { pages, threads } = paginateComments("/", "/", [weighty("a", 9), comment("b")], settings);
    expect(ids(pages[0]!)).toEqual(["a", "a-r0", "b"]);
    expect(pages[0]!.comments[0]!.more).toEqual({ count: 8, href: "/comments/index/thread/a/2/" });
    expect(
      threads
        .get("a")!
        .slice(1)
        .map((page) => page.comments[0]!.replies.length),
    ).toEqual([2, 2, 2, 2]);
  });

  it("still puts a reply on each page of a thread whose parent alone outweighs a page", () => {
    const parent = { ...comment("a", 30), html: heavy.repeat(4) };
    const { threads } = paginateComments("/", "/", [parent], settings);
    const pages = threads.get("a")!.slice(1);
    expect(pages.flatMap((page) => page.comments[0]!.replies)).toHaveLength(29);
    expect(pages.every((page) => page.comments[0]!.replies.length >= 1 && page.comments[0]!.replies.length <= 9)).toBe(
      true,
    );
  });
});

describe("navItems", () => {
  it("lists the first, the last and the current page's neighbours, with gaps between", () => {
    const pages = Array.from({ length: 2_000 }, (_, i) => ({ number: i + 1, href: `/p/${i + 1}/` }));
    const items = navItems(pages, 1_000);
    expect(items.map((item) => ("gap" in item ? "…" : item.number))).toEqual([
      1,
      "…",
      998,
      999,
      1000,
      1001,
      1002,
      "…",
      2000,
    ]);
    expect(items.filter((item) => "current" in item && item.current)).toEqual([
      { number: 1000, href: "/p/1000/", current: true },
    ]);
  });

  it("marks no gap where the listed pages meet, at either end and on short lists", () => {
    const pages = (length: number) => Array.from({ length }, (_, i) => ({ number: i + 1, href: `/p/${i + 1}/` }));
    const numbers = (length: number, current: number) =>
      navItems(pages(length), current).map((item) => ("gap" in item ? "…" : item.number));
    expect(numbers(2, 1)).toEqual([1, 2]);
    expect(numbers(5, 3)).toEqual([1, 2, 3, 4, 5]);
    expect(numbers(9, 1)).toEqual([1, 2, 3, "…", 9]);
    expect(numbers(9, 4)).toEqual([1, 2, 3, 4, 5, 6, "…", 9]);
    expect(numbers(9, 9)).toEqual([1, "…", 7, 8, 9]);
  });

  it("reads only the pages it lists, so every page of a long thread costs the same", () => {
    // Every page of a thread has a navigation: reading all pages for each made a build quadratic.
    const read = new Set<number>();
    const pages = new Proxy(
      Array.from({ length: 10_000 }, (_, i) => ({ number: i + 1, href: `/p/${i + 1}/` })),
      {
        get(target, property, receiver) {
          if (typeof property === "string" && /^\d+$/.test(property)) read.add(Number(property));
          return Reflect.get(target, property, receiver);
        },
      },
    );
    expect(navItems(pages, 5_000)).toHaveLength(9);
    expect(read.size).toBeLessThanOrEqual(7);
  });
});

describe("links to a post and its comment pages", () => {
  it.each([
    ["/posts/c#sharp?", "/posts/c%23sharp%3F/", "/comments/posts/c%23sharp%3F/page/2/"],
    ["/posts/café", "/posts/caf%C3%A9/", "/comments/posts/caf%C3%A9/page/2/"],
    ["/posts/100%", "/posts/100%25/", "/comments/posts/100%25/page/2/"],
  ])("write the decoded key %s percent-encoded, its # and ? as part of the path", (key, post, page2) => {
    const comments = Array.from({ length: 11 }, (_, i) => comment(`c${i}`));
    const { pages } = paginateComments(key, postHref(key, settings), comments, settings);
    expect(pages.map((page) => page.href)).toEqual([post, page2]);
    expect(new URL(page2, "https://example.com").pathname).toBe(page2);
  });
});

describe("freshFirstPage (the server island's first page beside the build's comment pages)", () => {
  const split = (comments: StoredComment[]) => paginateComments("/p", "/p/", comments, settings);
  const build = [comment("a", 2), comment("b", 2), ...["c", "d", "e", "f", "g", "h"].map((id) => comment(id))];

  it("keeps the build's first page whole as replies arrive, so no comment falls between it and page 2", () => {
    const built = split(build);
    expect(built.pages.map(ids)[1]).toEqual(["g", "h"]);
    const fresh = [comment("a", 4), ...build.slice(1)];
    const shown = freshFirstPage(fresh, built);
    expect(ids({ comments: shown })).toEqual([
      "a",
      "a-r0",
      "a-r1",
      "a-r2",
      "a-r3",
      "b",
      "b-r0",
      "b-r1",
      "c",
      "d",
      "e",
      "f",
    ]);
    // Every comment of the build is on the island's page or on a page its navigation links to.
    const reachable = new Set([...ids({ comments: shown }), ...built.pages.slice(1).flatMap(ids)]);
    expect(build.flatMap((c) => [c.id, ...c.replies.map((r) => r.id)]).filter((id) => !reachable.has(id))).toEqual([]);
  });

  it("shows whole a thread that grew long since the build, since no build wrote pages for it", () => {
    const built = split([comment("a", 8)]);
    const shown = freshFirstPage([comment("a", 12)], built);
    expect(shown[0]!.replies).toHaveLength(12);
    expect(shown[0]!.more).toBeUndefined();
  });

  it("keeps the replies a thread the build split showed, and its link to the thread's pages", () => {
    const built = split([comment("a", 25), comment("b")]);
    const fresh = [comment("a", 27), comment("b")];
    const [a] = freshFirstPage(fresh, built);
    expect(a!.replies).toHaveLength(built.pages[0]!.comments[0]!.replies.length);
    expect(a!.more).toEqual(built.pages[0]!.comments[0]!.more);
  });

  it("shows a new thread that comes before the end of the first page (newest-first), not one after it (oldest-first)", () => {
    const built = split(build);
    expect(freshFirstPage([comment("new"), ...build], built)[0]!.id).toBe("new");
    expect(freshFirstPage([...build, comment("new")], built).map((c) => c.id)).not.toContain("new");
  });

  it("shows every comment of a post the build showed on one page", () => {
    const fresh = Array.from({ length: 30 }, (_, i) => comment(`c${i}`));
    expect(freshFirstPage(fresh, null)).toEqual(fresh);
  });
});

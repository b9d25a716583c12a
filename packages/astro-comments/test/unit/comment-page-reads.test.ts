// Which posts' comments the comment pages read, and how often (data.ts). A post split by its count
// is read once per build when the loader wrote no split for it (dev with an adapter's modules): its
// comment pages' route, its post page and its JSON-LD share them (each read of a build's data file
// parses the post's whole thread, so a second one held a second copy of 200,000 replies at the
// build's peak). With the split the loader writes in a build's data files, it is not read at all:
// each page reads its own comments. A post the loader made a list for fits one page and is not
// read at all; a post of few comments without one is read and weighed.
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { PageCommentsData } from "../../src/loader/entry-schema.ts";
import { storedComment as comment } from "../helpers/stored-comments.ts";

const store = vi.hoisted(() => ({
  reads: new Map<string, number>(),
  modulesLoaded: 0,
  /** Whether the module carries the split the loader writes beside each split post, and the reads of its pages. */
  splits: false,
  pageReads: 0,
  /** Whether the loader made them under other settings than the site's now. */
  otherSettings: false,
}));

const pages: Record<string, PageCommentsData> = {
  "/posts/busy": { path: "/posts/busy", count: 31, comments: [comment("a", 20), comment("b", 9)] },
  "/posts/quiet": { path: "/posts/quiet", count: 2, comments: [comment("c", 1)] },
  ...Object.fromEntries(
    [2, 3, 4, 5].map((n) => [
      `/posts/quiet-${n}`,
      { path: `/posts/quiet-${n}`, count: 1, comments: [comment(`q${n}`)] },
    ]),
  ),
  // 4 comments of 37 elements each: more than the 120 a page of size 10 holds.
  "/posts/heavy": {
    path: "/posts/heavy",
    count: 4,
    comments: ["d", "e", "f", "g"].map((id) => ({ ...comment(id), html: `<pre>${"<span>x</span>".repeat(29)}</pre>` })),
  },
};

vi.mock("astro:content", () => ({
  getCollection: async () => (await import("../helpers/data-api-mocks.ts")).collectionEntries(pages),
  // Like a build's external module: every read of a page parses its comments afresh, and the
  // loader made the list of each post that fits one page.
  render: async () => {
    store.modulesLoaded++;
    const { default: config } = await import("virtual:astro-comments/config");
    const { LISTS_FIELD, listKey, siteListHtml } = await import("../../src/render/site-list.ts");
    const frontmatter = {};
    const html = {};
    for (const [key, data] of Object.entries(pages)) {
      const list = siteListHtml(data.comments, config);
      if (list !== undefined) Object.defineProperty(html, key, { enumerable: true, get: () => list });
    }
    const lists = {
      key: store.otherSettings ? "other settings" : listKey(config),
      html,
      split: {} as Record<string, unknown>,
    };
    Object.defineProperty(frontmatter, LISTS_FIELD, { value: lists });
    if (store.splits) {
      const { siteSplit } = await import("../../src/render/site-list.ts");
      const { pagesWithComments, paginationOutline } = await import("../../src/render/pagination-outline.ts");
      // Each split post's pages kept apart, as a data file's lines: `at` is where in `written`.
      const written: unknown[] = [];
      for (const [key, data] of Object.entries(pages)) {
        const split = siteSplit(key, data.comments, config);
        if (split === undefined) continue;
        const at = pagesWithComments(split).map((page): [number, number, string] => {
          written.push(structuredClone(page.comments));
          return [written.length - 1, 0, ""];
        });
        lists.split[key] = paginationOutline(split, at);
      }
      Object.defineProperty(lists, "read", {
        value: ([index]: [number]) => {
          store.pageReads++;
          return structuredClone(written[index]);
        },
      });
    }
    for (const [key, data] of Object.entries(pages)) {
      Object.defineProperty(frontmatter, key, {
        enumerable: true,
        get: () => {
          store.reads.set(key, (store.reads.get(key) ?? 0) + 1);
          return structuredClone(data);
        },
      });
    }
    return { remarkPluginFrontmatter: frontmatter };
  },
}));

vi.mock("virtual:astro-comments/config", async () => {
  const { configModule, commentPagesUnder } = await import("../helpers/data-api-mocks.ts");
  return configModule(commentPagesUnder("/"));
});

// As in a build: in dev, entries and their comments are read afresh on every call.
// The service answered: no notice that the comments are out of date.
vi.mock("virtual:astro-comments/notice", () => ({ default: null }));

vi.stubEnv("DEV", false);
vi.stubEnv("PROD", true);
const data = await import("../../src/data.ts");

describe("a split post's comments", () => {
  beforeEach(() => store.reads.clear());

  it("are read once for its comment pages, its post page and its JSON-LD, which share one split", async () => {
    const routes = await data.commentPageRoutes();
    expect(routes.length).toBeGreaterThan(1);
    const onPost = await data.getComments("/posts/busy");
    const forJsonLd = await data.getComments("/posts/busy/");
    expect(store.reads.get("/posts/busy")).toBe(1);
    expect(forJsonLd.comments).toBe(onPost.comments);
    expect(data.commentPagination("/posts/busy", onPost.comments)).toBe(routes[0]!.props.pagination);
  });

  it("of a post of few but heavy comments get comment pages; a post with a made list is not read", async () => {
    const routes = await data.commentPageRoutes();
    // 3 of them fill a page.
    expect(routes.map((route) => route.params.page).filter((page) => page.startsWith("posts/heavy/"))).toEqual([
      "posts/heavy/page/2",
    ]);
    expect(store.reads.get("/posts/heavy")).toBe(1);
    expect(store.reads.has("/posts/quiet")).toBe(false);
    expect(await data.getMadeCommentList("/posts/quiet", data.commentLocale())).toBeDefined();
    expect(await data.getMadeCommentList("/posts/heavy", data.commentLocale())).toBeUndefined();
  });

  it("of a post on one page are read each time a page asks, and kept by none", async () => {
    await data.getComments("/posts/quiet");
    await data.getComments("/posts/quiet");
    expect(store.reads.get("/posts/quiet")).toBe(2);
  });
  it("are listed in dev with each module loaded once, not once per post", async () => {
    // A fresh copy of the module: a build's, above, keeps what it loaded for the rest of the build.
    vi.resetModules();
    vi.stubEnv("DEV", true);
    try {
      const dev = await import("../../src/data.ts");
      store.modulesLoaded = 0;
      await dev.commentPageRoutes();
      // The made lists of all 7 posts from one load of their module; the split posts' comments from one each.
      expect(store.modulesLoaded).toBe(3);
    } finally {
      vi.stubEnv("DEV", false);
    }
  });
});

describe("a split post the loader wrote comment pages for", () => {
  afterAll(() => {
    store.splits = false;
  });
  beforeEach(() => {
    vi.resetModules();
    store.splits = true;
    store.reads.clear();
    store.pageReads = 0;
  });

  it("is not read for its comment pages, its post page or its JSON-LD: each page reads its own comments", async () => {
    const fresh = await import("../../src/data.ts");
    const routes = await fresh.commentPageRoutes();
    const shown = await fresh.getShownComments("/posts/busy");
    expect(store.reads.has("/posts/busy")).toBe(false);
    expect(store.reads.has("/posts/heavy")).toBe(false);
    expect(store.pageReads).toBe(1);
    // The same split as from the comments themselves, shared by the post page and its comment pages.
    const whole = await fresh.getComments("/posts/busy");
    const made = fresh.commentPagination("/posts/busy", whole.comments)!;
    expect(shown.pagination).toBe(routes[0]!.props.pagination);
    expect(shown.comments).toEqual(made.pages[0]!.comments);
    const busy = routes.filter((route) => route.props.key === "/posts/busy");
    expect(busy.map((route) => route.params.page)).toEqual(
      [...made.pages.slice(1), ...[...made.threads.values()].flatMap((pages) => pages.slice(1))].map((page) =>
        page.href.replace(/^\/comments\/|\/$/g, ""),
      ),
    );
    store.pageReads = 0;
    const [route] = busy;
    const { pages } = route!.props.pagination;
    expect(pages[route!.props.number - 1]!.comments).toEqual(made.pages[route!.props.number - 1]!.comments);
    expect(store.pageReads).toBe(1);
  });

  it("is read from its comments when the split was made under other settings", async () => {
    store.otherSettings = true;
    try {
      const fresh = await import("../../src/data.ts");
      const shown = await fresh.getShownComments("/posts/busy");
      expect(store.reads.get("/posts/busy")).toBe(1);
      expect(store.pageReads).toBe(0);
      expect(shown.pagination?.pages.length).toBeGreaterThan(1);
    } finally {
      store.otherSettings = false;
    }
  });
});

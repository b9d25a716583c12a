// Which posts' comments the comment pages read, and how often (data.ts). A post split by its count
// is read once per build: its comment pages' route, its post page and its JSON-LD share them (each read of
// a build's data file parses the post's whole thread, so a second one held a second copy of
// 200,000 replies at the build's peak). A post the loader made a list for fits one page and is not
// read at all; a post of few comments without one is read and weighed.
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { PageCommentsData } from "../../src/loader/entry-schema.ts";
import { storedComment as comment } from "../helpers/stored-comments.ts";

const store = vi.hoisted(() => ({ reads: new Map<string, number>(), modulesLoaded: 0 }));

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
    Object.defineProperty(frontmatter, LISTS_FIELD, { value: { key: listKey(config), html } });
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

// A split post's comments are read once per build (data.ts): its comment pages' route, its post
// page and its JSON-LD share them. Each read of a build's data file parses the post's whole
// thread, so a second one held a second copy of 200,000 replies at the build's peak.
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { PageCommentsData } from "../../src/loader/entry-schema.ts";
import { storedComment as comment } from "../helpers/stored-comments.ts";

const store = vi.hoisted(() => ({ reads: new Map<string, number>() }));

const pages: Record<string, PageCommentsData> = {
  "/posts/busy": { path: "/posts/busy", count: 31, comments: [comment("a", 20), comment("b", 9)] },
  "/posts/quiet": { path: "/posts/quiet", count: 2, comments: [comment("c", 1)] },
};

vi.mock("astro:content", () => ({
  getCollection: async () =>
    Object.entries(pages).map(([id, data]) => ({
      id,
      collection: "comments",
      digest: `digest-of-${id}`,
      filePath: "shard-0",
      data: { path: data.path, count: data.count },
    })),
  // Like a build's external module: every read of a page parses its comments afresh.
  render: async () => {
    const frontmatter = {};
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
  const { resolveOptions } = await import("../../src/integration/options.ts");
  const options = resolveOptions({}, {}, { requireCredentials: false });
  return {
    default: {
      ...options,
      collection: "comments",
      pages: { size: 10, route: "/comments", base: "/", trailingSlash: true, movedLinks: false },
    },
  };
});

// As in a build: in dev, entries and their comments are read afresh on every call.
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

  it("of a post on one page are read each time a page asks, and kept by none", async () => {
    await data.getComments("/posts/quiet");
    await data.getComments("/posts/quiet");
    expect(store.reads.get("/posts/quiet")).toBe(2);
  });
});

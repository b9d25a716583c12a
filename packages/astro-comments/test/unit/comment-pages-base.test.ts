// A site under a base (`base: "/docs"`) whose comments service also holds comments on the rest of
// its domain: a path outside the base is on none of the site's pages, and gets no comment pages.
// Its pages' parameter would be a real post's ("/posts/x" and "/docs/posts/x" are both "posts/x"),
// so they overwrote that post's, and the end of the build then removed both as an orphan's.
import { describe, expect, it, vi } from "vitest";
import type { PageCommentsData } from "../../src/loader/entry-schema.ts";
import { storedComment as comment } from "../helpers/stored-comments.ts";

const split = (path: string): PageCommentsData => ({
  path,
  count: 30,
  comments: Array.from({ length: 30 }, (_, i) => comment(`${path}-${i}`)),
});
const pages: Record<string, PageCommentsData> = {
  "/docs/posts/x": split("/docs/posts/x"),
  "/posts/x": split("/posts/x"),
  "/": split("/"),
};

vi.mock("astro:content", async () => (await import("../helpers/data-api-mocks.ts")).contentModule(pages));

vi.mock("virtual:astro-comments/config", async () => {
  const { configModule, commentPagesUnder } = await import("../helpers/data-api-mocks.ts");
  return configModule(commentPagesUnder("/docs/"));
});

// The service answered: no notice that the comments are out of date.
vi.mock("virtual:astro-comments/notice", () => ({ default: null }));

vi.stubEnv("DEV", false);
vi.stubEnv("PROD", true);
const data = await import("../../src/data.ts");

describe("comment pages under a base", () => {
  it("are made for the posts under the base only, each page's comments its own post's", async () => {
    const routes = await data.commentPageRoutes();
    expect(routes.map((route) => route.params.page)).toEqual(["posts/x/page/2", "posts/x/page/3"]);
    expect(new Set(routes.map((route) => route.props.key))).toEqual(new Set(["/docs/posts/x"]));
  });
});

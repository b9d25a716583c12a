// Comment pages of paths no built page shows (integration/unshown-comment-pages.ts): which post a
// comment page belongs to, and which files astro:build:done removes.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  commentPageParam,
  postOfPage,
  removeUnshownCommentPages,
} from "../../src/integration/unshown-comment-pages.ts";
import type { PagesSettings } from "../../src/render/comment-pages.ts";

const settings = (base = "/"): PagesSettings => ({
  size: 100,
  route: "/comments",
  base,
  trailingSlash: true,
  movedLinks: true,
});

describe("commentPageParam", () => {
  it("finds the post of a page or a thread's page, as a URL, a folder's index.html or a .html file", () => {
    expect(commentPageParam("/comments/posts/x/page/2/", "/comments")).toBe("posts/x");
    expect(commentPageParam("comments/posts/x/page/12/index.html", "/comments")).toBe("posts/x");
    expect(commentPageParam("comments/posts/x/thread/c0ffee12/3.html", "/comments")).toBe("posts/x");
    expect(commentPageParam("/comments/index/page/2", "/comments")).toBe("index");
  });

  it("tells a post whose own path ends in page/N from that post's page", () => {
    expect(commentPageParam("/comments/posts/a/page/page/2", "/comments")).toBe("posts/a/page");
  });

  it("names no post for any other page or file", () => {
    for (const path of [
      "/posts/x",
      "/comments/posts/x",
      "/comments/posts/x.xml",
      "/comments/counts.json",
      "/other/posts/x/page/2",
    ]) {
      expect(commentPageParam(path, "/comments"), path).toBeUndefined();
    }
  });
});

describe("postOfPage", () => {
  it("gives a comment page's post, base included, and any other page itself", () => {
    expect(postOfPage("/docs/comments/posts/x/page/2", settings("/docs/"))).toBe("/docs/posts/x");
    expect(postOfPage("/docs/comments/index/thread/c1/2", settings("/docs/"))).toBe("/docs");
    expect(postOfPage("/comments/index/page/2", settings())).toBe("/");
    expect(postOfPage("/posts/x", settings())).toBe("/posts/x");
    expect(postOfPage("/comments/posts/x/page/2", false)).toBe("/comments/posts/x/page/2");
  });
});

describe("removeUnshownCommentPages", () => {
  const root = mkdtempSync(join(tmpdir(), "ac-unshown-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const files = (paths: string[]) =>
    paths.map((path) => {
      const file = join(root, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, "x");
      return pathToFileURL(file);
    });

  it("removes an unshown post's pages, thread pages and moved-links file, and the folders they leave empty", async () => {
    const gone = ["comments/posts/a/page/2/index.html", "comments/posts/a/thread/c1/2/index.html"];
    const kept = ["comments/posts/a/b/page/2/index.html", "comments/posts/c/page/2/index.html"];
    const output = {
      dir: pathToFileURL(`${root}/`),
      assets: new Map([
        ["/comments/[...page]", files([...gone, ...kept])],
        ["/comments/[...page].json", files(["comments/posts/a.json", "comments/posts/c.json"])],
        ["/comments/[...page].xml", files(["comments/posts/a.xml"])],
      ]),
    };
    expect(await removeUnshownCommentPages(settings(), new Set(["/posts/a"]), output)).toBe(2);
    for (const path of [...gone, "comments/posts/a.json", "comments/posts/a/page", "comments/posts/a/thread"]) {
      expect(existsSync(join(root, path)), path).toBe(false);
    }
    // Another post below the unshown one keeps its pages; the page feed is finishFeeds' to remove.
    for (const path of [...kept, "comments/posts/c.json", "comments/posts/a.xml"]) {
      expect(existsSync(join(root, path)), path).toBe(true);
    }
  });

  it("leaves a post's pages alone for an unshown path outside the base with the same path below it", async () => {
    const output = {
      dir: pathToFileURL(`${root}/`),
      assets: new Map([["/comments/[...page]", files(["comments/posts/e/page/2/index.html"])]]),
    };
    // "/posts/e" is the rest of the domain; the site's own post is "/docs/posts/e".
    expect(await removeUnshownCommentPages(settings("/docs/"), new Set(["/posts/e", "/"]), output)).toBe(0);
    expect(existsSync(join(root, "comments/posts/e/page/2/index.html"))).toBe(true);
  });

  it("removes nothing when comment pages are off or every path is shown", async () => {
    const output = {
      dir: pathToFileURL(`${root}/`),
      assets: new Map([["/comments/[...page]", files(["comments/posts/d/page/2/index.html"])]]),
    };
    expect(await removeUnshownCommentPages(false, new Set(["/posts/d"]), output)).toBe(0);
    expect(await removeUnshownCommentPages(settings(), new Set(), output)).toBe(0);
    expect(existsSync(join(root, "comments/posts/d/page/2/index.html"))).toBe(true);
  });
});

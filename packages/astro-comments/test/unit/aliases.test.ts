import { describe, expect, it } from "vitest";
import type { CommentThread } from "../../src/api/generated/api-types.ts";
import { aliasedKey, buildAliasMap, dedupeAliasedThreads } from "../../src/render/aliases.ts";
import { groupThreadsByPage } from "../../src/render/comment-tree.ts";

const thread = (
  path: string,
  name: string,
  created_at = "2026-01-01T00:00:00.000000Z",
  content = `${name} says hi`,
): CommentThread =>
  ({ path, name, created_at, content, html: `<p>${content}</p>`, children: [] }) as unknown as CommentThread;

describe("buildAliasMap", () => {
  it("normalises both sides with pathKey", () => {
    expect([...buildAliasMap({ "/Old-URL/index.html": "https://example.com/new-url/?x=1" })]).toEqual([
      ["/Old-URL", "/new-url"],
    ]);
  });

  it("takes Astro redirects (string or destination), skips patterns and external targets, lets aliases win", () => {
    const map = buildAliasMap(
      { "/a": "/from-alias" },
      {
        "/a": "/from-redirect",
        "/b/": { destination: "/posts/b" },
        "/blog/[slug]": "/posts/[slug]",
        "/c": "/posts/[...rest]",
        "/ext": "https://elsewhere.example/x",
      },
    );
    expect(Object.fromEntries(map)).toEqual({ "/a": "/from-alias", "/b": "/posts/b" });
  });

  it("adds the site's base to redirects (Astro applies it), not to aliases", () => {
    expect(
      Object.fromEntries(
        buildAliasMap({ "/docs/x": "/docs/y" }, { "/old": "/new", "/docs/kept": "/docs/also" }, "/docs/"),
      ),
    ).toEqual({
      "/docs/old": "/docs/new",
      "/docs/kept": "/docs/also",
      "/docs/x": "/docs/y",
    });
  });

  it("follows chains to their end and leaves cycles alone", () => {
    expect(
      Object.fromEntries(buildAliasMap({ "/a": "/b", "/b": "/c", "/x": "/y", "/y": "/x", "/self/": "/self" })),
    ).toEqual({ "/a": "/c", "/b": "/c" });
  });
});

describe("aliases when grouping", () => {
  it("moves old URLs' threads to the new page", () => {
    const key = aliasedKey(buildAliasMap({ "/old/": "/new" }));
    const pages = groupThreadsByPage([thread("/new", "Ann"), thread("/old/", "Bob"), thread("/other", "Cy")], key);
    expect([...pages.keys()]).toEqual(["/new", "/other"]);
    expect(pages.get("/new")!.map((t) => t.name)).toEqual(["Ann", "Bob"]);
  });

  it("counts a comment stored under both URLs once, and keeps real twins", () => {
    const both = [
      thread("/new", "Ann"),
      thread("/old", "Ann"),
      thread("/old", "Twin"),
      thread("/old", "Twin"),
      thread("/new", "Twin"),
    ];
    const kept = dedupeAliasedThreads(both, "/new");
    expect(kept.filter((t) => t.name === "Ann").map((t) => t.path)).toEqual(["/new"]);
    expect(kept.filter((t) => t.name === "Twin")).toHaveLength(2);
  });
});

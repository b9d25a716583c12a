// The live loader against the mock, without Astro: one page's comments per call, rendered like the
// build's, with cache hints; failures come back as { error }.
import { startMockServer, type MockServer } from "@astro-comments/mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CommentsApiError, CommentsConfigError } from "../src/errors.ts";
import { commentsLiveLoader } from "../src/live-loader.ts";

const DOMAIN = "empty.example";
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ dataset: { seed: 4, size: 10 } });
  const add = (path: string, name: string, created_at: string, html?: string) =>
    mock.addComment({ domain: DOMAIN, path, name, content: `${name} was here`, created_at, ...(html ? { html } : {}) });
  add("/posts/x", "Ann", "2026-03-01T10:00:00.000000Z");
  add("/posts/x/", "Bob", "2026-03-02T10:00:00.000000Z", `<p onclick="alert(1)">Hi <script>alert(2)</script></p>`);
  add("/posts/y", "Cy", "2026-03-03T10:00:00.000000Z");
});
afterAll(() => mock.close());

const loader = (token = mock.token) =>
  commentsLiveLoader({ domain: DOMAIN, apiUrl: mock.url, apiToken: token, timeout: 30_000 });

describe("commentsLiveLoader", () => {
  it("loads one page's comments, every spelling of its path, sanitized and in order, with cache hints", async () => {
    const result = await loader().loadEntry({ filter: { id: "https://example.com/posts/x/?utm=1" } });
    if (result === undefined || "error" in result) throw new Error(`expected an entry, got ${JSON.stringify(result)}`);
    expect(result.id).toBe("/posts/x");
    expect(result.data.count).toBe(2);
    expect(result.data.comments.map((c) => c.author)).toEqual(["Ann", "Bob"]);
    expect(result.data.comments[1]!.html).toBe("<p>Hi </p>");
    expect(result.cacheHint).toEqual({
      tags: ["comments:/posts/x"],
      lastModified: new Date("2026-03-02T10:00:00.000Z"),
    });
  });

  it("sees a comment approved a moment ago", async () => {
    mock.addComment({ domain: DOMAIN, path: "/posts/y", name: "Dee", content: "Just now" });
    const result = await loader().loadEntry({ filter: { id: "/posts/y" } });
    if (result === undefined || "error" in result) throw new Error("expected an entry");
    expect(result.data.comments.map((c) => c.author)).toEqual(["Cy", "Dee"]);
  });

  it("gives a page without comments an empty entry, and no lastModified", async () => {
    const result = await loader().loadEntry({ filter: { id: "/posts/none" } });
    expect(result).toEqual({
      id: "/posts/none",
      data: { path: "/posts/none", count: 0, comments: [] },
      cacheHint: { tags: ["comments:/posts/none"] },
    });
  });

  it("loads the collection, whole or filtered to one path", async () => {
    const all = await loader().loadCollection({});
    if ("error" in all) throw all.error;
    expect(all.entries.map((e) => e.id).sort()).toEqual(["/posts/x", "/posts/y"]);
    const one = await loader().loadCollection({ filter: { path: "/posts/x/" } });
    if ("error" in one) throw one.error;
    expect(one.entries.map((e) => e.id)).toEqual(["/posts/x"]);
    expect(one.cacheHint).toEqual({ tags: ["comments:/posts/x"] });
  });

  it("returns a typed error with the URL and status instead of throwing", async () => {
    const result = await loader("tok-wrong-123456").loadEntry({ filter: { id: "/posts/x" } });
    expect(result && "error" in result).toBe(true);
    const { error } = result as { error: CommentsApiError };
    expect(error).toBeInstanceOf(CommentsApiError);
    expect(error.status).toBe(401);
    expect(error.url).toContain("path=%2Fposts%2Fx");
    expect(error.message).not.toContain("tok-wrong-123456");
  });

  it("returns a config error when there are no credentials", async () => {
    const saved = { ...process.env };
    for (const name of ["COMMENTS_DOMAIN", "COMMENTS_API_URL", "COMMENTS_API_TOKEN"]) delete process.env[name];
    try {
      const result = await commentsLiveLoader().loadEntry({ filter: { id: "/posts/x" } });
      expect((result as { error: Error }).error).toBeInstanceOf(CommentsConfigError);
      expect((result as { error: Error }).error.message).toMatch(
        /^astro-comments: set COMMENTS_DOMAIN, COMMENTS_API_URL and COMMENTS_API_TOKEN/,
      );
    } finally {
      Object.assign(process.env, saved);
    }
  });
});

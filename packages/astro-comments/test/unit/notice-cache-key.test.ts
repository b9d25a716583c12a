// Incremental builds and the staleNotice option: a page's cacheKey (getCommentsDigest, and the
// comment pages' own) says whether this build shows the notice that its comments are out of date.
// During an outage a build keeps the last good comments, digests and all, so without it Astro
// restored pages without the notice during the outage, and with it once the service was back.
import { describe, expect, it, vi } from "vitest";
import type { PageCommentsData } from "../../src/loader/entry-schema.ts";
import type { StaleNotice } from "../../src/integration/virtual-modules.ts";
import { storedComment as comment } from "../helpers/stored-comments.ts";

const pages: Record<string, PageCommentsData> = {
  "/posts/long": { path: "/posts/long", count: 30, comments: Array.from({ length: 30 }, (_, i) => comment(`c-${i}`)) },
};

vi.mock("astro:content", async () => (await import("../helpers/data-api-mocks.ts")).contentModule(pages));
vi.mock("virtual:astro-comments/config", async () => {
  const { configModule, commentPagesUnder } = await import("../helpers/data-api-mocks.ts");
  return configModule(commentPagesUnder("/"));
});
vi.stubEnv("DEV", false);
vi.stubEnv("PROD", true);

/** The data API of a build that shows `notice` (null: the comments are the service's own, now). */
async function buildShowing(notice: StaleNotice | null) {
  vi.resetModules();
  vi.doMock("virtual:astro-comments/notice", () => ({ default: notice }));
  return import("../../src/data.ts");
}

describe("cacheKey and the notice that comments are out of date", () => {
  it("is the comments' digest alone while the service answers", async () => {
    const data = await buildShowing(null);
    expect(await data.getCommentsDigest("/posts/long/")).toBe("digest-of-/posts/long");
    expect(await data.getCommentsDigest("/posts/none")).toBe("");
    const routes = await data.commentPageRoutes();
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) expect(route.cacheKey).toBe("digest-of-/posts/long");
  });

  it("changes while a build shows the notice, for pages with comments and without, and back after", async () => {
    const during = await buildShowing({ asOf: "2026-11-29T08:00:00.000Z" });
    const stale = await during.getCommentsDigest("/posts/long");
    expect(stale).not.toBe("digest-of-/posts/long");
    expect(await during.getCommentsDigest("/posts/none")).not.toBe("");
    for (const route of await during.commentPageRoutes()) expect(route.cacheKey).toBe(stale);
    // A later outage that keeps the same comments gives the same key: those pages are restored.
    const later = await buildShowing({ asOf: "2026-11-29T08:00:00.000Z" });
    expect(await later.getCommentsDigest("/posts/long")).toBe(stale);
    // No date known (the first build ever, in an outage): a key of its own.
    const unknown = await buildShowing({ asOf: null });
    expect(await unknown.getCommentsDigest("/posts/long")).not.toBe(stale);
    const after = await buildShowing(null);
    expect(await after.getCommentsDigest("/posts/long")).toBe("digest-of-/posts/long");
  });
});

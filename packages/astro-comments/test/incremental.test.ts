// Astro 7.2+ incremental builds of the example site (experimental.incrementalBuild, with the
// comments' digest in each post's cacheKey): after one approval exactly the page that got the
// comment, and its comment pages, are rendered again; every other page is restored from Astro's
// cache. Comment pages of 10 comments, so that several posts have some.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { showcasePaths, startMockServer, type MockServer } from "@astro-comments/mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { astroBuild } from "./helpers/astro-cli.ts";
import { copySite, setPagesOption, type SiteCopy } from "./helpers/site-copy.ts";

let mock: MockServer;
let site: SiteCopy;
beforeAll(async () => {
  mock = await startMockServer();
  site = copySite("incremental");
  setPagesOption(site.dir, "pages: { size: 10 },");
});
afterAll(async () => {
  await mock.close();
  site.remove();
});

const build = () =>
  astroBuild(
    { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: mock.token },
    join(site.dir, "dist"),
    site.dir,
  );

/** Routes the build log lists as restored from the cache, and those it rendered. */
function routes(log: string) {
  const lines = [...log.matchAll(/├─ (\S+) \((restored|\+\d+ms)\)/g)];
  return {
    restored: lines
      .filter((m) => m[2] === "restored")
      .map((m) => m[1]!)
      .sort(),
    rendered: lines
      .filter((m) => m[2] !== "restored")
      .map((m) => m[1]!)
      .sort(),
  };
}

const total = (html: string) => Number(/data-comments-total>\((\d+)\)</.exec(html)?.[1]);

describe("incremental build", () => {
  it("renders again exactly the post whose comments changed, its comment pages, and the index", async () => {
    const first = await build();
    expect(first.code, first.log).toBe(0);
    const page = (path: string) => readFileSync(join(site.dir, "dist", path.slice(1), "index.html"), "utf8");
    const worldBefore = total(page(showcasePaths.world));

    const unchanged = await build();
    expect(unchanged.code, unchanged.log).toBe(0);
    expect(routes(unchanged.log).rendered).toEqual(["/index.html"]);
    expect(unchanged.log).toMatch(/0 rendered, \d+ unchanged, 0 removed/);

    mock.addComment({
      domain: "example.com",
      path: showcasePaths.world,
      name: "New Reader",
      content: "Approved between two builds.",
    });
    const after = await build();
    expect(after.code, after.log).toBe(0);
    const { rendered, restored } = routes(after.log);
    const worldPages = `/comments${showcasePaths.world}/`;
    expect(rendered.filter((route) => !route.startsWith(worldPages))).toEqual(
      [`${showcasePaths.world}/index.html`, "/index.html"].sort(),
    );
    expect(rendered.filter((route) => route.startsWith(worldPages)).length).toBeGreaterThan(0);
    expect(restored).toContain(`${showcasePaths.code}/index.html`);
    expect(restored).toContain(`/comments${showcasePaths.xss}/page/2/index.html`);
    expect(total(page(showcasePaths.world))).toBe(worldBefore + 1);
    // Oldest first, the new comment is on the post's last comment page.
    const worldFiles = readdirSync(join(site.dir, "dist", worldPages), { recursive: true, encoding: "utf8" });
    const holding = worldFiles.filter(
      (file) =>
        file.endsWith(".html") &&
        readFileSync(join(site.dir, "dist", worldPages, file), "utf8").includes("Approved between two builds."),
    );
    expect(holding).toHaveLength(1);
    expect(readFileSync(join(site.dir, "dist", "index.html"), "utf8")).toMatch(
      new RegExp(`data-comment-count="${worldBefore + 1}"`),
    );
  });
});

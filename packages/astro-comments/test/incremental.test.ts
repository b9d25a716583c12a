// Astro 7.2+ incremental builds of the example site (experimental.incrementalBuild, with the
// comments' digest in each post's cacheKey): after one approval exactly the page that got the
// comment is rendered again; every other post is restored from Astro's cache.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { showcasePaths, startMockServer, type MockServer } from "@astro-comments/mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { astroBuild } from "./helpers/astro-cli.ts";
import { copySite, type SiteCopy } from "./helpers/site-copy.ts";

let mock: MockServer;
let site: SiteCopy;
beforeAll(async () => {
  mock = await startMockServer();
  site = copySite("incremental");
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
      .map((m) => m[1])
      .sort(),
    rendered: lines
      .filter((m) => m[2] !== "restored")
      .map((m) => m[1])
      .sort(),
  };
}

const total = (html: string) => Number(/data-comments-total>\((\d+)\)</.exec(html)?.[1]);

describe("incremental build", () => {
  it("renders again exactly the post whose comments changed, and the index", async () => {
    const first = await build();
    expect(first.code, first.log).toBe(0);
    const page = (path: string) => readFileSync(join(site.dir, "dist", path.slice(1), "index.html"), "utf8");
    const helloBefore = total(page(showcasePaths.hello));

    const unchanged = await build();
    expect(unchanged.code, unchanged.log).toBe(0);
    expect(routes(unchanged.log).rendered).toEqual(["/index.html"]);
    expect(unchanged.log).toMatch(/0 rendered, \d+ unchanged, 0 removed/);

    mock.addComment({
      domain: "example.com",
      path: showcasePaths.hello,
      name: "New Reader",
      content: "Approved between two builds.",
    });
    const after = await build();
    expect(after.code, after.log).toBe(0);
    const { rendered, restored } = routes(after.log);
    expect(rendered).toEqual([`${showcasePaths.hello}/index.html`, "/index.html"].sort());
    expect(restored).toContain(`${showcasePaths.code}/index.html`);
    expect(total(page(showcasePaths.hello))).toBe(helloBefore + 1);
    expect(page(showcasePaths.hello)).toContain("Approved between two builds.");
    expect(readFileSync(join(site.dir, "dist", "index.html"), "utf8")).toMatch(
      new RegExp(`data-comment-count="${helloBefore + 1}"`),
    );
  });
});

// pages.layout names the site's layout for comment pages: a path that is not a file fails the
// config at once, with the path looked for, rather than as a Vite import error mid-build. And the
// comment pages' URLs follow how Astro writes their files.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import comments from "../../src/index.ts";
import { siteHandoff } from "../../src/site-registry.ts";

const root = mkdtempSync(join(tmpdir(), "ac-layout-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function setUp(layout?: string, config: object = {}): void {
  const setup = comments({ pages: layout === undefined ? {} : { layout } }).hooks["astro:config:setup"] as (
    params: unknown,
  ) => void;
  const noop = () => undefined;
  setup({
    config: { root: pathToFileURL(`${root}/`), base: "/", vite: {}, ...config },
    command: "sync",
    updateConfig: noop,
    injectScript: noop,
    injectRoute: noop,
    logger: { info: noop, warn: noop, debug: noop, error: noop },
  });
}

describe("pages.layout", () => {
  it("accepts a layout file under the site's root", () => {
    mkdirSync(join(root, "src/layouts"), { recursive: true });
    writeFileSync(join(root, "src/layouts/Base.astro"), "<slot />\n");
    expect(() => setUp("./src/layouts/Base.astro")).not.toThrow();
  });

  it("fails when the layout is not a file, naming the path it looked for", () => {
    expect(() => setUp("./src/layouts/Missing.astro")).toThrow(
      `pages.layout "./src/layouts/Missing.astro" is not a file (looked for ${join(root, "src/layouts/Missing.astro")})`,
    );
    expect(() => setUp("./src/layouts")).toThrow(/is not a file/);
  });
});

describe("comment page URLs", () => {
  it.each([
    [{}, true],
    [{ trailingSlash: "never" }, false],
    [{ build: { format: "file" } }, false],
    // page/2.html, as Astro writes a route that is not an index: a host serves it at page/2 only.
    [{ build: { format: "preserve" } }, false],
    [{ build: { format: "directory" }, trailingSlash: "always" }, true],
  ])("end in a slash only where Astro writes each page as a folder: %j", (config, slash) => {
    setUp(undefined, config);
    const pages = siteHandoff(pathToFileURL(`${root}/`))?.pages;
    expect(pages === false ? undefined : pages?.trailingSlash).toBe(slash);
  });
});

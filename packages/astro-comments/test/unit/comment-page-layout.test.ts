// pages.layout names the site's layout for comment pages: a path that is not a file fails the
// config at once, with the path looked for, rather than as a Vite import error mid-build.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import comments from "../../src/index.ts";

const root = mkdtempSync(join(tmpdir(), "ac-layout-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function setUp(layout: string): void {
  const setup = comments({ pages: { layout } }).hooks["astro:config:setup"] as (params: unknown) => void;
  const noop = () => undefined;
  setup({
    config: { root: pathToFileURL(`${root}/`), base: "/", vite: {} },
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

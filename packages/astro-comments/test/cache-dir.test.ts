// A cacheDir outside the project (a CI cache folder, say): the comment modules live there and
// must still find the package's components, on the first build and on a warm one.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockServer, type MockServer } from "@astro-comments/mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { astroBuild, BUILD_TIMEOUT_MS } from "./helpers/astro-cli.ts";
import { copySite, type SiteCopy } from "./helpers/site-copy.ts";

let mock: MockServer;
let site: SiteCopy;
let cacheDir: string;
const env = () => ({ COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: mock.token });

beforeAll(async () => {
  mock = await startMockServer({ dataset: { seed: 4, size: 30 } });
  site = copySite("cache-dir");
  cacheDir = mkdtempSync(join(tmpdir(), "ac-outside-cache-"));
  writeFileSync(
    join(site.dir, "astro.config.mjs"),
    `import { defineConfig } from "astro/config";
import comments from "astro-comments";
export default defineConfig({ site: "https://example.com", cacheDir: ${JSON.stringify(cacheDir)}, integrations: [comments({ orphans: "ignore" })] });
`,
  );
});
afterAll(async () => {
  await mock?.close();
  site?.remove();
  if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
});

describe("a cacheDir outside the project", () => {
  it("builds with the comments, keeps the modules there, and renders nothing on the next build", {
    timeout: 2 * BUILD_TIMEOUT_MS,
  }, async () => {
    const first = await astroBuild(env(), undefined, site.dir);
    expect(first.code, first.log).toBe(0);
    expect(first.log).toMatch(/\[astro-comments\] [\d,]+ comments on \d+ pages: [1-9]\d* rendered/);
    expect(readdirSync(join(cacheDir, "astro-comments/modules")).length).toBeGreaterThan(0);
    expect(readFileSync(join(first.out, "posts/hello-world/index.html"), "utf8")).toMatch(/data-comment-author/);

    const second = await astroBuild(env(), undefined, site.dir);
    expect(second.code, second.log).toBe(0);
    expect(second.log).toMatch(/: 0 rendered, \d+ unchanged/);
    expect(readFileSync(join(second.out, "posts/hello-world/index.html"), "utf8")).toMatch(/data-comment-author/);
  });
});

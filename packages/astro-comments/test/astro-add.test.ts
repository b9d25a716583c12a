// The way Astro users install an integration: in fresh minimal Astro 5, 6 and 7 sites,
// `npx astro add astro-comments --yes` against the run's registry (where the global setup published
// the package) installs it and adds it to astro.config. The README's remaining steps (the
// collection, the credentials in .env, <Comments /> on a page) then give a site that builds with
// the comments of `npx comments-mock`, installed from the same registry, and
// `npx --no astro-comments check` runs from the installed package.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, start, type Started } from "../../../mock-server/test/pack-helpers.ts";
import { npm, run, siteAstro, writeSite, type RunResult } from "./helpers/pack-sites.ts";
import { registry, spec } from "./helpers/registry.ts";

const majors = [5, 6, 7] as const;
type Major = (typeof majors)[number];
const DOMAIN = "my-site.test";

/** What a new site has before `astro add`: Astro's own minimal template, reduced to one page. */
const minimalSite: Record<string, string> = {
  "package.json": `${JSON.stringify({ name: "astro-add-site", private: true, type: "module", scripts: { build: "astro build" } }, null, 2)}\n`,
  "astro.config.mjs": `// @ts-check
import { defineConfig } from 'astro/config';

// https://astro.build/config
export default defineConfig({});
`,
  "tsconfig.json": `${JSON.stringify({ extends: "astro/tsconfigs/strict", include: [".astro/types.d.ts", "**/*"], exclude: ["dist"] }, null, 2)}\n`,
  "src/pages/index.astro": '<html lang="en"><head><title>Home</title></head><body><h1>Home</h1></body></html>\n',
};

/** README steps 2 (the collection) and 3 (<Comments /> on a page); the credentials come with the mock. */
const readmeSteps: Record<string, string> = {
  "src/content.config.ts": `import { defineCollection } from "astro:content";
import { commentsLoader } from "astro-comments/loader";

export const collections = { comments: defineCollection({ loader: commentsLoader() }) };
`,
  "src/pages/posts/hello-world.astro": `---
import { Comments, CommentCount } from "astro-comments/components";
---
<html lang="en"><head><meta charset="utf-8" /><title>Hello</title></head>
<body><article><h1>Hello, world</h1><CommentCount /></article>
<Comments /></body></html>
`,
  "src/pages/posts/busy.astro": `---
import { Comments } from "astro-comments/components";
---
<html lang="en"><head><meta charset="utf-8" /><title>Busy</title></head>
<body><h1>Busy</h1><Comments /></body></html>
`,
};

interface Site {
  install?: RunResult;
  add?: RunResult;
  build?: RunResult;
  check?: RunResult;
}

let work: string;
let mock: Started | undefined;
let mockInstall: RunResult;
let mockUrl = "";
const sites = new Map<Major, Site>(majors.map((major) => [major, {}]));
const siteDir = (major: Major) => join(work, `astro-${major}`);

async function addAndBuild(major: Major): Promise<void> {
  const site = sites.get(major)!;
  const dir = siteDir(major);
  writeSite(dir, minimalSite);
  site.install = await npm(["install", `astro@${major}`], dir);
  if (site.install.code !== 0) return;
  site.add = await run("npx", ["astro", "add", "astro-comments", "--yes"], dir);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "astro-comments-add-"));
  // The sites install at once, sharing npm's cache.
  await Promise.all(majors.map(addAndBuild));
  // The mock, by name from the same registry, into the Astro 7 site as the guide installs it.
  mockInstall = await npm(["install", "--save-dev", spec("mock-server")], siteDir(7));
  if (mockInstall.code === 0) {
    mock = start("npx", ["comments-mock", "--domain", DOMAIN, "--port", String(await freePort())], siteDir(7));
    mockUrl = (await mock.waitFor(/^Comments API mock listening on (\S+) token=mock-token/m))[1]!;
    // 150 comments on one post, through the mock's admin route: a post split into comment pages.
    for (let i = 0; i < 150; i++) {
      const comment = { domain: DOMAIN, path: "/posts/busy", name: `Reader ${i}`, content: `Comment ${i}.` };
      const added = await fetch(`${mockUrl}/__admin/comments`, {
        method: "POST",
        headers: { authorization: "Bearer mock-token" },
        body: JSON.stringify(comment),
      });
      if (added.status !== 201) throw new Error(`the mock did not add a comment: ${await added.text()}`);
    }
  }
  for (const major of majors) {
    const site = sites.get(major)!;
    if (site.add?.code !== 0 || !mockUrl) continue;
    const dir = siteDir(major);
    writeSite(dir, {
      ...readmeSteps,
      ".env": `COMMENTS_DOMAIN=${DOMAIN}\nCOMMENTS_API_URL=${mockUrl}\nCOMMENTS_API_TOKEN=mock-token\n`,
    });
    // docs/rebuild-on-change.md: the build publishes its state, which the check compares with.
    const config = join(dir, "astro.config.mjs");
    writeFileSync(
      config,
      readFileSync(config, "utf8").replace("comments()", 'comments({ feeds: { state: "/comments/state.json" } })'),
    );
    site.build = await siteAstro(dir, ["build"]);
    if (site.build.code === 0)
      site.check = await run("npx", ["--no", "astro-comments", "check", "--state", "dist/comments/state.json"], dir);
  }
}, 20 * 60_000);

afterAll(async () => {
  await mock?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
}, 5 * 60_000);

describe.each(majors)("a fresh Astro %i site", (major) => {
  it("gets astro-comments from `npx astro add astro-comments --yes`: installed and in astro.config", () => {
    const site = sites.get(major)!;
    expect(site.install?.code, site.install?.output).toBe(0);
    expect(site.add?.code, site.add?.output).toBe(0);
    expect(site.add!.output).not.toMatch(/doesn't appear to be an integration|Unable to fetch/);
    const { version } = registry().published["packages/astro-comments"];
    const manifest = JSON.parse(readFileSync(join(siteDir(major), "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(manifest.dependencies["astro-comments"]).toBe(`^${version}`);
    const installed = JSON.parse(
      readFileSync(join(siteDir(major), "node_modules/astro-comments/package.json"), "utf8"),
    ) as { version: string };
    expect(installed.version).toBe(version);
    const config = readFileSync(join(siteDir(major), "astro.config.mjs"), "utf8");
    expect(config).toMatch(/^import comments from ["']astro-comments["'];?$/m);
    expect(config).toMatch(/integrations: \[comments\(\{ feeds/);
  });

  it("builds with the README's steps, showing the comments of `npx comments-mock` from the same registry", () => {
    expect(mockInstall.code, mockInstall.output).toBe(0);
    const build = sites.get(major)!.build;
    expect(build?.code, build?.output ?? sites.get(major)!.add?.output).toBe(0);
    expect(build!.output).toMatch(/\[astro-comments\] [\d,]+ comments on [\d,]+ pages?:/);
    const html = readFileSync(join(siteDir(major), "dist/posts/hello-world/index.html"), "utf8");
    expect(html).toMatch(/<section[^>]*data-comments/);
    expect(html).toMatch(/data-comment-author[^>]*>Jane Doe</);
  });

  it("splits the busy post into comment pages that a reader reaches by the section's links (docs/long-threads.md)", () => {
    const dist = join(siteDir(major), "dist");
    const post = readFileSync(join(dist, "posts/busy/index.html"), "utf8");
    expect(post).toMatch(/<nav[^>]*aria-label="Comment pages"[^>]*data-comments-pages/);
    expect(post).toContain('<a href="/comments/posts/busy/page/2/">2</a>');
    const second = readFileSync(join(dist, "comments/posts/busy/page/2/index.html"), "utf8");
    expect(second).toContain("<title>Comments on /posts/busy (page 2 of ");
    expect(second).toMatch(/<a href="\/comments\/posts\/busy\/page\/2\/" aria-current="page">2<\/a>/);
    const articles = (html: string) => (html.match(/<article[^>]*data-comment /g) ?? []).length;
    expect(articles(post)).toBeLessThanOrEqual(100);
    expect(articles(second)).toBeGreaterThan(0);
    expect(articles(second)).toBeLessThanOrEqual(100);
  });

  it("runs `npx --no astro-comments check` from the installed package: nothing changed since the build", () => {
    const check = sites.get(major)!.check;
    expect(check?.code, check?.output ?? sites.get(major)!.build?.output).toBe(0);
    expect(check!.stdout).toMatch(/^astro-comments: /);
  });
});

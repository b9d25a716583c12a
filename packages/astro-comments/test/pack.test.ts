// Installable by anyone: the package as `npm publish` put it on the run's registry (its prepack
// building from sources, see scripts/test-registry.ts), installed by name and version with a plain
// `npm install` into fresh Astro 5, 6 and 7 sites outside this repository, set up as the README
// says, built against the mock and type-checked with `astro check`; publint and arethetypeswrong on
// the tarball the registry serves; and what the install adds to a site.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockServer, type MockServer, type StoredComment } from "@astro-comments/mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { minimumNodeVersion } from "../src/utils/node-version.ts";
import { BUILD_TIMEOUT_MS } from "./helpers/astro-cli.ts";
import {
  documentedSetup,
  footprint,
  npm,
  repoTool,
  run,
  siteAstro,
  writeSite,
  type Footprint,
  type RunResult,
  storedComment,
} from "./helpers/pack-sites.ts";
import { registry, spec, type PublishedPackage } from "./helpers/registry.ts";

const TOKEN = "tok-pack-5e2c91";
const majors = [5, 6, 7] as const;
type Major = (typeof majors)[number];
/** Packages and bytes the install may add to a fresh Astro 7 site. */
const footprintBudget = { packages: 10, bytes: 2_000_000 };

const comments: StoredComment[] = [
  storedComment(1, {
    name: "Ada Lovelace",
    html: '<p>Thanks, <strong>this helped</strong>.</p>\n<pre><code class="language-js">const answer = 42;</code></pre>',
  }),
  storedComment(2, { parentId: 1, name: "Grace Hopper", html: "<p>Agreed.</p>" }),
  storedComment(3, { status: "pending", name: "Not Yet Moderated", html: "<p>held</p>" }),
];

/**
 * A page that reads the collection itself: typed entries (a type error where one belongs), the
 * comments through the data API, and the entry's own content through render().
 */
const typedPage = `---
import { getEntry, render } from "astro:content";
import { getComments } from "astro-comments/data";
const entry = await getEntry("comments", "/posts/hello-world");
if (!entry) throw new Error("no comments entry for /posts/hello-world");
const count: number = entry.data.count;
const { comments } = await getComments(entry.data.path);
const author: string = comments[0]?.replies[0]?.author ?? "";
// @ts-expect-error: the entries are typed, so a count is no string
const wrong: string = entry.data.count;
const { Content } = await render(entry);
---
<p data-typed>{count} {author} {wrong}</p>
<Content path={entry.data.path} heading="Rendered from the entry" />
`;

let mock: MockServer;
let work: string;
let published: PublishedPackage;
/** The tarball the registry serves, fetched with `npm pack <name>@<version>` (which builds nothing). */
let tarball: string;
/** Each site's npm installs, in order. */
const installs = new Map<Major, RunResult[]>();
/** A fresh Astro 7 site's node_modules before and after installing the package. */
const footprints: { before?: Footprint; after?: Footprint } = {};
const siteDir = (major: Major) => join(work, `astro-${major}`);

/** Runs the site's own Astro CLI with this repository's Node. */
const astro = (major: Major, args: string[], env: Record<string, string> = {}): Promise<RunResult> =>
  siteAstro(siteDir(major), args, env);

async function installSite(major: Major): Promise<void> {
  const site = siteDir(major);
  writeSite(site, { ...documentedSetup, "src/pages/typed.astro": typedPage });
  const results: RunResult[] = [];
  installs.set(major, results);
  const install = async (...specs: string[]) => {
    results.push(await npm(["install", ...specs], site));
    return results.at(-1)!.code === 0;
  };
  const checkTools = ["@astrojs/check", "typescript@~6.0"];
  if (major !== 7) {
    await install(`astro@${major}`, ...checkTools, spec("packages/astro-comments"));
    return;
  }
  // In steps, to measure what the package adds to a site that has nothing but Astro.
  if (!(await install(`astro@${major}`))) return;
  footprints.before = await footprint(site);
  if (!(await install(spec("packages/astro-comments")))) return;
  footprints.after = await footprint(site);
  await install(...checkTools);
}

beforeAll(async () => {
  mock = await startMockServer({ token: TOKEN, comments });
  work = mkdtempSync(join(tmpdir(), "astro-comments-pack-"));
  published = registry().published["packages/astro-comments"];
  const fetched = await npm(["pack", spec("packages/astro-comments")], work);
  if (fetched.code !== 0) throw new Error(`npm pack ${spec("packages/astro-comments")} failed:\n${fetched.output}`);
  tarball = join(work, published.filename);
  // The sites install at once, sharing npm's cache.
  await Promise.all(majors.map(installSite));
}, 15 * 60_000);

afterAll(async () => {
  await mock?.close();
  if (work) rmSync(work, { recursive: true, force: true });
  // Deleting several sites' node_modules takes minutes when the machine is busy.
}, 5 * 60_000);

describe("the published package", () => {
  it("is on the registry by name, its tarball served from there, with what `astro add` reads", async () => {
    const view = await npm(["view", spec("packages/astro-comments"), "--json"], work);
    expect(view.code, view.output).toBe(0);
    const meta = JSON.parse(view.stdout) as {
      name: string;
      version: string;
      keywords: string[];
      peerDependencies: Record<string, string>;
      dist: { tarball: string };
      "dist-tags": Record<string, string>;
    };
    expect(meta).toMatchObject({ name: "astro-comments", version: published.version });
    expect(meta["dist-tags"].latest).toBe(published.version);
    expect(meta.dist.tarball.startsWith(registry().url)).toBe(true);
    expect(meta.keywords).toContain("astro-integration");
    expect(meta.peerDependencies).toEqual({ astro: "^5.0.0 || ^6.0.0 || ^7.0.0" });
  });

  const installed = () => join(siteDir(7), "node_modules/astro-comments/");
  const manifest = () =>
    JSON.parse(readFileSync(join(installed(), "package.json"), "utf8")) as {
      exports: Record<string, string | Record<string, string>>;
      dependencies: Record<string, string>;
      engines: { node: string };
    };

  it("holds the built code, components, styles, README and LICENSE, and nothing else", () => {
    const unexpected = published.files.filter(
      (file) =>
        !/^(dist\/.+\.(js|d\.ts)|components\/[^/]+\.(astro|ts)|styles\/[^/]+\.css|README\.md|LICENSE|package\.json)$/.test(
          file,
        ),
    );
    expect(unexpected).toEqual([]);
    for (const file of [
      "README.md",
      "LICENSE",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/loader.js",
      "dist/data.js",
      "styles/comments.css",
    ])
      expect(published.files).toContain(file);
  });

  it("has every file its exports name", () => {
    const targets = Object.values(manifest().exports).flatMap((target) =>
      typeof target === "string" ? [target] : Object.values(target),
    );
    expect(
      targets.map((target) => target.replace(/^\.\//, "")).filter((file) => !published.files.includes(file)),
    ).toEqual([]);
  });

  it("has self-contained types and JavaScript without source maps", () => {
    for (const file of published.files.filter((path) => path.startsWith("dist/"))) {
      const text = readFileSync(join(installed(), file), "utf8");
      // A user's project need not have @types/node.
      if (file.endsWith(".d.ts"))
        expect(text, file).not.toMatch(/\bNodeJS\.|["']node:|reference types=["']node["']|\bBuffer\b/);
      else expect(text, file).not.toContain("sourceMappingURL");
    }
  });

  it("depends on no private workspace package and states the Node it needs", () => {
    expect(Object.keys(manifest().dependencies).filter((name) => name.startsWith("@astro-comments/"))).toEqual([]);
    expect(manifest().engines.node).toBe(`>=${minimumNodeVersion}`);
  });

  it("passes publint --strict", async () => {
    const result = await run(process.execPath, [repoTool("publint"), "run", tarball, "--strict"], work);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain("All good!");
  });

  it("passes arethetypeswrong (esm-only) for every entry point that plain TypeScript can type", async () => {
    // ./components and ./components/island are .astro source, typed by Astro's own tooling (astro
    // check below covers ./components); ./styles.css is a stylesheet. None has anything for attw to resolve.
    const result = await run(
      process.execPath,
      [
        repoTool("@arethetypeswrong/cli"),
        tarball,
        "--profile",
        "esm-only",
        "--exclude-entrypoints",
        "./components",
        "./components/island",
        "./styles.css",
        "--format",
        "ascii",
      ],
      work,
    );
    expect(result.code, result.output).toBe(0);
  });
});

describe.each(majors)("a fresh Astro %i site", (major) => {
  const env = () => ({ COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: TOKEN });

  it("installs astro-comments with a plain npm install, no peer dependency conflict and no second Vite", async () => {
    for (const install of installs.get(major)!) {
      expect(install.code, install.output).toBe(0);
      expect(install.output).not.toMatch(/ERESOLVE|peer dep|conflicting peer/i);
    }
    const installed = JSON.parse(readFileSync(join(siteDir(major), "node_modules/astro/package.json"), "utf8")) as {
      version: string;
    };
    expect(installed.version.split(".")[0]).toBe(String(major));
    // The package uses Astro's own Vite: a second copy would be megabytes and, on Astro 5 and 6,
    // another major version.
    const vites = await npm(["ls", "vite", "--all", "--parseable"], siteDir(major));
    expect(
      vites.stdout.split(/\r?\n/).filter((line) => /node_modules[\\/]vite$/.test(line)),
      vites.output,
    ).toHaveLength(1);
  });

  it("builds with the documented setup, the comments in the HTML", { timeout: BUILD_TIMEOUT_MS }, async () => {
    const build = await astro(major, ["build"], env());
    expect(build.code, build.output).toBe(0);
    expect(build.output).toMatch(/\[astro-comments\] 2 comments on 1 page:/);
    const html = readFileSync(join(siteDir(major), "dist/posts/hello-world/index.html"), "utf8");
    expect(html).toMatch(/<section[^>]*data-comments/);
    expect(html).toMatch(/data-comment-author[^>]*>Ada Lovelace</);
    expect(html).toMatch(/<ol[^>]*data-comment-replies[^>]*>[\s\S]*data-comment-author[^>]*>Grace Hopper</);
    expect(html).toContain('<span class="token keyword">const</span>');
    expect(html).toMatch(/data-comment-count="2"/);
    // injectStyles: the default stylesheet, inlined or (now that it is larger than Vite's inline
    // limit) linked from the page.
    const linked = [...html.matchAll(/<link rel="stylesheet" href="\/([^"]+)"/g)].map((match) =>
      readFileSync(join(siteDir(major), "dist", match[1]!), "utf8"),
    );
    expect([html, ...linked].join("\n")).toContain("--ac-accent");
    expect(html).not.toMatch(/data-fetched="never"/);
    expect(html).not.toContain("Not Yet Moderated");
    expect(build.output).not.toMatch(/sourcemap|\[WARN\]/i);
    // The entry's data, the data API and render(entry)'s Content, on a page of its own.
    const typed = readFileSync(join(siteDir(major), "dist/typed/index.html"), "utf8");
    expect(typed).toContain("<p data-typed>2 Grace Hopper 2</p>");
    expect(typed).toMatch(/<h2[^>]*>Rendered from the entry[\s\S]*data-comment-author[^>]*>Ada Lovelace</);
  });

  it("builds again with nothing changed: nothing rendered, the comments still in the HTML", {
    timeout: BUILD_TIMEOUT_MS,
  }, async () => {
    // Astro 5 and 6 bundle only the content modules a sync names: a warm sync must name them all.
    const build = await astro(major, ["build"], env());
    expect(build.code, build.output).toBe(0);
    expect(build.output).toMatch(/\[astro-comments\] 2 comments on 1 page: 0 rendered, 1 unchanged/);
    expect(readFileSync(join(siteDir(major), "dist/posts/hello-world/index.html"), "utf8")).toMatch(
      /data-comment-author[^>]*>Grace Hopper</,
    );
  });

  it("passes astro check", { timeout: BUILD_TIMEOUT_MS }, async () => {
    const check = await astro(major, ["check"]);
    expect(check.code, check.output).toBe(0);
    expect(check.output).toMatch(/- 0 errors\s+- 0 warnings/);
  });
});

describe("on a Node older than the package supports", () => {
  it.each([
    ["astro-comments", "dist/index.js"],
    // Not the loaders: they send with fetch() and also run in workerd (below).
  ])("importing %s fails in one line that names the Node it needs", async (specifier, entry) => {
    // Evaluated first (ESM evaluates imports in order), so undici never gets to fail in its own words.
    const firstStatement = /^(?:import|export)\b[^;]*;/m.exec(
      readFileSync(join(siteDir(7), "node_modules/astro-comments", entry), "utf8"),
    )?.[0];
    expect(firstStatement).toBe('import "./utils/node-version.js";');
    const olderNode = "data:text/javascript,Object.defineProperty(process.versions,'node',{value:'22.18.0'})";
    const result = await run(
      process.execPath,
      ["--import", olderNode, "--input-type=module", "-e", `await import(${JSON.stringify(specifier)})`],
      siteDir(7),
    );
    expect(result.code).not.toBe(0);
    expect(result.output).toContain(
      `astro-comments needs Node ${minimumNodeVersion} or newer, but this is Node 22.18.0`,
    );
    expect(result.output).not.toMatch(/TypeError|undici/);
  });

  // The loaders run in workerd too, which reports the Node its compatibility date implies.
  it.each(["astro-comments/loader", "astro-comments/live-loader"])(
    "importing %s works on the Node that workerd reports at 2025-03-01 (22.14.0)",
    async (specifier) => {
      const workerdNode = "data:text/javascript,Object.defineProperty(process.versions,'node',{value:'22.14.0'})";
      const result = await run(
        process.execPath,
        ["--import", workerdNode, "--input-type=module", "-e", `await import(${JSON.stringify(specifier)})`],
        siteDir(7),
      );
      expect(result.output).toBe("");
      expect(result.code).toBe(0);
    },
  );
});

describe("footprint", () => {
  it(`adds at most ${footprintBudget.packages} packages and ${footprintBudget.bytes / 1e6} MB to a fresh Astro 7 site`, () => {
    const { before, after } = footprints;
    expect(
      before && after,
      installs
        .get(7)
        ?.map((install) => install.output)
        .join("\n"),
    ).toBeTruthy();
    const added = [...after!.packages].filter((pkg) => !before!.packages.has(pkg)).sort();
    const bytes = after!.bytes - before!.bytes;
    const report = `astro-comments adds ${added.length} packages, ${bytes} bytes: ${added.join(", ")}`;
    console.log(report);
    expect(added.length, report).toBeLessThanOrEqual(footprintBudget.packages);
    expect(bytes, report).toBeLessThanOrEqual(footprintBudget.bytes);
  });
});

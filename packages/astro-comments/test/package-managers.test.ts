// The package as pnpm (its strict node_modules), Yarn 4 (nodeLinker: node-modules) and, where it is
// installed, Bun install it by name and version from the run's registry, in sites started as `node node_modules/astro/bin/astro.mjs build` with no NODE_PATH
// (pnpm's .bin shims set one, and it hides what a strict layout cannot resolve). Each site builds a
// page with the loader's comments and serves an on-demand page with the live loader from
// @astrojs/node's server bundle, where the fetch and render code runs bundled. A page importing a
// constant from content.config.ts is measured against the same pnpm site without astro-comments.
// npm installs are pack.test.ts's and astro-add.test.ts's.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockServer, type MockServer, type StoredComment } from "@astro-comments/mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  pnpm,
  run,
  siteAstro,
  startSiteServer,
  writeSite,
  yarn,
  type RunResult,
  storedComment,
} from "./helpers/pack-sites.ts";
import { spec } from "./helpers/registry.ts";

const TOKEN = "tok-managers-81f3a0";
/**
 * What a page that imports content.config.ts may load more than without astro-comments: the
 * loader, its entry schema and its error classes, unminified as Astro leaves server code, and the
 * imports and exports of the chunks Vite splits them into.
 */
const importBudgetBytes = 20_000;
/** How much larger than without astro-comments any chunk that page loads may be. */
const chunkBudgetBytes = 4_000;
const adapter = "@astrojs/node@^11";

// Rust is no grammar of PrismJS's core: it loads on demand, from a chunk of its own once bundled.
const comments: StoredComment[] = [
  storedComment(1, {
    name: "Ada Lovelace",
    html: '<p>In Rust:</p>\n<pre><code class="language-rust">fn main() { let answer = 42; }</code></pre>',
  }),
  storedComment(2, {
    parentId: 1,
    name: "Grace Hopper",
    html: '<pre><code class="language-js">const answer = 42;</code></pre>',
  }),
];
const rustTokens = '<span class="token keyword">fn</span> <span class="token function-definition function">main</span>';

/** Records every chunk of every server-side build: the only view of chunks a static build deletes. */
const chunkLog = `
import { writeFileSync } from "node:fs";
const chunks = [];
const chunkLog = {
  name: "chunk-log",
  generateBundle(_, bundle) {
    const environment = this.environment.name;
    if (environment === "client") return;
    for (const out of Object.values(bundle)) {
      if (out.type !== "chunk") continue;
      const ownBytes = Object.entries(out.modules).filter(([id]) => /node_modules[\\\\/]astro-comments[\\\\/]/.test(id)).reduce((sum, [, module]) => sum + module.renderedLength, 0);
      chunks.push({ environment, fileName: out.fileName, bytes: Buffer.byteLength(out.code), ownBytes, imports: out.imports, moduleIds: out.moduleIds });
    }
    writeFileSync("chunks.json", JSON.stringify(chunks));
  },
};
`;

/** A site whose index page imports a constant from content.config.ts, with or without astro-comments. */
function siteFiles(withComments: boolean): Record<string, string> {
  const files: Record<string, string> = {
    "package.json": `${JSON.stringify({ name: "managers-test-site", private: true, type: "module" }, null, 2)}\n`,
    "astro.config.mjs": `${chunkLog}
import node from "@astrojs/node";
import { defineConfig } from "astro/config";
${withComments ? 'import comments from "astro-comments";\n' : ""}
export default defineConfig({
  site: "https://example.com",
  adapter: node({ mode: "standalone" }),
  integrations: [${withComments ? 'comments({ feeds: { atom: "/comments.xml", counts: "/comments/counts.json" } })' : ""}],
  vite: { plugins: [chunkLog] },
});
`,
    // A blog's own collection in both, so only astro-comments differs.
    "src/content.config.ts": `import { defineCollection } from "astro:content";
import { glob } from "astro/loaders";
import { z } from "astro/zod";
${withComments ? 'import { commentsLoader } from "astro-comments/loader";\n' : ""}
export const SITE_TITLE = "Measured";
const blog = defineCollection({ loader: glob({ pattern: "*.md", base: "src/content/blog" }), schema: z.object({ title: z.string() }) });
export const collections = { blog${withComments ? ", comments: defineCollection({ loader: commentsLoader() })" : ""} };
`,
    "src/content/blog/first.md": "---\ntitle: First\n---\nHello.\n",
    "src/pages/index.astro": `---
import { SITE_TITLE } from "../content.config";
---
<html lang="en"><head><meta charset="utf-8" /><title>{SITE_TITLE}</title></head><body><h1>{SITE_TITLE}</h1></body></html>
`,
  };
  if (!withComments) return files;
  return {
    ...files,
    "src/pages/posts/hello-world.astro": `---
import { Comments } from "astro-comments/components";
---
<html lang="en"><head><meta charset="utf-8" /><title>Hello</title></head><body><Comments /></body></html>
`,
    "src/live.config.ts": `import { defineLiveCollection } from "astro:content";
import { commentsLiveLoader } from "astro-comments/live-loader";

export const collections = { liveComments: defineLiveCollection({ loader: commentsLiveLoader() }) };
`,
    "src/pages/live/[...slug].astro": `---
export const prerender = false;
import { getLiveEntry } from "astro:content";
import { renderCommentItems } from "astro-comments/data";

const { entry, error } = await getLiveEntry("liveComments", \`/\${Astro.params.slug ?? ""}\`);
if (error) return new Response(\`Comments unavailable: \${error.message}\`, { status: 502 });
---
<html lang="en"><head><meta charset="utf-8" /><title>Live</title></head><body><ol set:html={renderCommentItems(entry.data.comments)} /></body></html>
`,
  };
}

interface Chunk {
  environment: string;
  fileName: string;
  bytes: number;
  /** Bytes of astro-comments' own modules in the chunk. */
  ownBytes: number;
  imports: string[];
  moduleIds: string[];
}

/** The chunk that holds a page and every chunk it imports statically: what rendering it loads. */
function pageChunks(site: string, page: string): Chunk[] {
  const chunks = JSON.parse(readFileSync(join(site, "chunks.json"), "utf8")) as Chunk[];
  const entry = chunks.find((chunk) => chunk.moduleIds.some((id) => id.replaceAll("\\", "/").endsWith(page)));
  if (entry === undefined) throw new Error(`no chunk holds ${page}`);
  const inEnvironment = new Map(
    chunks.filter((chunk) => chunk.environment === entry.environment).map((chunk) => [chunk.fileName, chunk]),
  );
  const seen = new Map<string, Chunk>();
  const visit = (chunk: Chunk) => {
    if (seen.has(chunk.fileName)) return;
    seen.set(chunk.fileName, chunk);
    // Imports of node: builtins and of externalized packages name no chunk.
    for (const name of chunk.imports) {
      const imported = inEnvironment.get(name);
      if (imported !== undefined) visit(imported);
    }
  };
  visit(entry);
  return [...seen.values()];
}

/** Bun where it is installed: this repository does not bring it. */
const bunInstalled = spawnSync("bun", ["--version"]).status === 0;
if (!bunInstalled) console.warn("Bun is not installed: the Bun site is skipped.");
const managers = ["pnpm", "yarn", ...(bunInstalled ? (["bun"] as const) : [])] as const;
type Manager = "pnpm" | "yarn" | "bun";
type SiteName = Manager | "pnpm-without";

let mock: MockServer;
let work: string;
const installs = new Map<SiteName, RunResult>();
const builds = new Map<SiteName, { result: RunResult; seconds: number }>();
const siteDir = (name: SiteName) => join(work, name);
const env = () => ({ COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: TOKEN });

async function installAndBuild(name: SiteName): Promise<void> {
  const site = siteDir(name);
  const withComments = name !== "pnpm-without";
  writeSite(site, siteFiles(withComments));
  const packages = ["astro@7", adapter, ...(withComments ? [spec("packages/astro-comments")] : [])];
  if (name === "yarn") {
    // Yarn 4 installs no version younger than a day (npmMinimalAgeGate) unless told; this one was
    // published a minute ago, as a release is the day it comes out.
    writeSite(site, {
      ".yarnrc.yml": 'nodeLinker: node-modules\nenableTelemetry: false\nnpmPreapprovedPackages: ["astro-comments"]\n',
      "yarn.lock": "",
      // Vite 8.4 names a Windows-only optional dependency that this registry does not serve (404).
      // npm and pnpm skip a missing optional package; Yarn 4 fails the whole install, any site's,
      // ours or not. An empty local package stands in for it, so Yarn still resolves the newest Vite.
      "package.json": `${JSON.stringify(
        {
          ...(JSON.parse(siteFiles(true)["package.json"]!) as object),
          resolutions: { "napi-windows-process-start-time": "file:./missing-optional" },
        },
        null,
        2,
      )}\n`,
      "missing-optional/package.json": '{ "name": "napi-windows-process-start-time", "version": "0.1.0" }\n',
    });
    installs.set(name, await yarn(["add", ...packages], site));
  } else if (name === "bun") {
    installs.set(name, await run("bun", ["add", ...packages], site));
  } else {
    installs.set(name, await pnpm(["add", ...packages], site));
  }
  if (installs.get(name)!.code !== 0) return;
  const started = performance.now();
  const result = await siteAstro(site, ["build"], env());
  builds.set(name, { result, seconds: (performance.now() - started) / 1000 });
}

beforeAll(async () => {
  mock = await startMockServer({ token: TOKEN, comments });
  work = mkdtempSync(join(tmpdir(), "astro-comments-managers-"));
  // One after the other: the builds' times are compared, and this machine has few cores.
  for (const name of ["pnpm", "pnpm-without", "yarn", ...(bunInstalled ? (["bun"] as const) : [])] as const)
    await installAndBuild(name);
}, 15 * 60_000);

afterAll(async () => {
  await mock?.close();
  if (work) rmSync(work, { recursive: true, force: true });
  // Deleting several sites' node_modules takes minutes when the machine is busy.
}, 5 * 60_000);

describe.each(managers)("a site installed with %s", (manager) => {
  it("installs astro-comments by name and version from the registry", () => {
    const install = installs.get(manager)!;
    expect(install.code, install.output).toBe(0);
    const site = siteDir(manager);
    const installed = JSON.parse(readFileSync(join(site, "node_modules/astro-comments/package.json"), "utf8")) as {
      version: string;
    };
    expect(`astro-comments@${installed.version}`).toBe(spec("packages/astro-comments"));
    // The point of the pnpm site: the package's own dependencies are not in the site's node_modules.
    if (manager === "pnpm") expect(existsSync(join(site, "node_modules/prismjs"))).toBe(false);
  });

  it("builds when started with plain node, its comments highlighted, its feeds written", () => {
    const build = builds.get(manager)!.result;
    expect(build.code, build.output).toBe(0);
    expect(build.output).toMatch(/\[astro-comments\] 2 comments on 1 page:/);
    const html = readFileSync(join(siteDir(manager), "dist/client/posts/hello-world/index.html"), "utf8");
    expect(html).toMatch(/data-comment-author[^>]*>Ada Lovelace</);
    expect(html).toContain(rustTokens);
    expect(html).toContain('<span class="token keyword">const</span>');
    // The routes the integration injects run bundled as well.
    expect(readFileSync(join(siteDir(manager), "dist/client/comments.xml"), "utf8")).toContain("Grace Hopper");
    expect(JSON.parse(readFileSync(join(siteDir(manager), "dist/client/comments/counts.json"), "utf8"))).toEqual({
      "/posts/hello-world": 2,
    });
  });

  it("serves live comments from the adapter's server bundle, highlighted", { timeout: 60_000 }, async () => {
    expect(builds.get(manager)?.result.code).toBe(0);
    const server = await startSiteServer(siteDir(manager), env());
    try {
      const response = await fetch(`${server.url}/live/posts/hello-world`);
      const html = await response.text();
      expect(response.status, html).toBe(200);
      expect(html).toMatch(/data-comment-author[^>]*>Grace Hopper</);
      expect(html).toContain(rustTokens);
    } finally {
      await server.close();
    }
  });
});

describe("a page that imports a constant from content.config.ts", () => {
  it(`loads no fetch or render code, no chunk over ${chunkBudgetBytes / 1000} KB larger and at most ${importBudgetBytes / 1000} KB more in all than without astro-comments`, () => {
    for (const name of ["pnpm", "pnpm-without"] as const)
      expect(builds.get(name)?.result.code, builds.get(name)?.result.output).toBe(0);
    const withLoader = pageChunks(siteDir("pnpm"), "src/pages/index.astro");
    const without = pageChunks(siteDir("pnpm-without"), "src/pages/index.astro");
    // The loader's error classes may come along (api-error.js, with the brand and the escaping of
    // service text they use: small modules that import nothing); the client, crawl and renderer may not.
    const heavy = withLoader
      .flatMap((chunk) => chunk.moduleIds)
      .filter((id) =>
        /[\\/]node_modules[\\/](undici|prismjs|htmlparser2|entities)[\\/]|astro-comments[\\/]dist[\\/](sync-comments|fetch-comments|api[\\/](?!api-error|brand|service-text)|render[\\/])/.test(
          id,
        ),
      );
    expect(heavy).toEqual([]);
    const bytes = (chunks: Chunk[]) => chunks.reduce((sum, chunk) => sum + chunk.bytes, 0);
    const list = (chunks: Chunk[]) => chunks.map((chunk) => `${chunk.fileName} ${chunk.bytes}`).join(", ");
    const seconds = (name: SiteName) => builds.get(name)!.seconds.toFixed(1);
    const own = withLoader.reduce((sum, chunk) => sum + chunk.ownBytes, 0);
    console.log(
      `index page with astro-comments: ${bytes(withLoader)} bytes, ${own} of them astro-comments' own (${list(withLoader)}), build ${seconds("pnpm")} s; ` +
        `without: ${bytes(without)} bytes (${list(without)}), build ${seconds("pnpm-without")} s`,
    );
    expect(bytes(withLoader) - bytes(without), `${list(withLoader)} vs ${list(without)}`).toBeLessThanOrEqual(
      importBudgetBytes,
    );
    // Vite splits the shared code differently once there are more pages to share it, so chunks have
    // no counterpart by name: the page's own chunk (listed first) and the largest one are compared.
    const largest = (chunks: Chunk[]) => Math.max(...chunks.map((chunk) => chunk.bytes));
    expect(withLoader[0]!.bytes, list(withLoader)).toBeLessThanOrEqual(without[0]!.bytes + chunkBudgetBytes);
    expect(largest(withLoader), list(withLoader)).toBeLessThanOrEqual(largest(without) + chunkBudgetBytes);
  });
});

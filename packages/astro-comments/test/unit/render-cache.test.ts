// The render cache: what is rendered again (counted through an injected renderer), what is read
// back, what a damaged file or a failed write costs, and two builds writing one folder at once.
import { hostileBodies, xssBodies } from "@astro-comments/mock-server";
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { packLines, unpackEntries } from "../../src/loader/render-cache-format.ts";
import { packageRenderer, renderCache, type RenderCache, type Renderer } from "../../src/loader/render-cache.ts";
import { loadLanguagesOf } from "../../src/render/highlight.ts";
import { RENDER_VERSION, renderCommentBody } from "../../src/render/render-body.ts";
import { disallowedMarkup } from "../helpers/html-audit.ts";

const SHARD = 3;
const freshCacheDir = () => pathToFileURL(`${mkdtempSync(join(tmpdir(), "ac-render-cache-"))}/`);
const packFile = (cacheDir: URL) => join(fileURLToPath(cacheDir), "astro-comments", "render", `bodies-${SHARD}.txt`);

function countingRenderer(version = "test 1"): Renderer & { calls: string[] } {
  const calls: string[] = [];
  return {
    version,
    calls,
    render: (html, content) => {
      calls.push(html);
      return renderCommentBody(html, content);
    },
  };
}

function warnings() {
  const lines: string[] = [];
  return { lines, logger: { warn: (message: string) => void lines.push(message) } };
}

const bodies = Array.from({ length: 20 }, (_, i) => ({
  html: `<p>comment ${i}</p>${i % 4 === 0 ? '<pre><code class="language-js">let x = 1;</code></pre>' : ""}`,
  content: `comment ${i}`,
}));

/** One sync's rendering of these bodies, as a build does it: through the shard's renderer, then saved. */
async function build(cacheDir: URL, renderer: Renderer, these = bodies) {
  const { logger, lines } = warnings();
  const cache = renderCache(cacheDir, logger, renderer);
  const render = await cache.renderer(SHARD);
  const html = these.map(({ html, content }) => render(html, content).html);
  cache.save(SHARD);
  await cache.finish();
  return { html, counts: cache.counts, warnings: lines };
}

/**
 * A build after `build`'s that renders one new body, with `then` before the cache finishes: how
 * many entries its pack then holds.
 */
async function afterOneNewBody(then: (cache: RenderCache) => void): Promise<number> {
  const cacheDir = freshCacheDir();
  await build(cacheDir, countingRenderer());
  const cache = renderCache(cacheDir, warnings().logger, countingRenderer());
  (await cache.renderer(SHARD))("<p>new</p>", "new");
  then(cache);
  await cache.finish();
  return unpackEntries(readFileSync(packFile(cacheDir), "utf8")).entries.size;
}

describe("the render cache", () => {
  it("removes what a killed write left in its folder, and keeps a running writer's file", async () => {
    const cacheDir = freshCacheDir();
    await build(cacheDir, countingRenderer());
    const dir = join(fileURLToPath(cacheDir), "astro-comments", "render");
    // A pid no process has (above Linux's pid_max), and this process's own, as a write under way.
    writeFileSync(join(dir, `bodies-${SHARD}.txt.4194999.tmp`), "half a pack");
    writeFileSync(join(dir, `bodies-${SHARD}.txt.${process.pid}.tmp`), "being written");
    await build(cacheDir, countingRenderer());
    expect(readdirSync(dir).sort()).toEqual([`bodies-${SHARD}.txt`, `bodies-${SHARD}.txt.${process.pid}.tmp`]);
  });

  it("renders each body once: the next build reads every unchanged one back, the same HTML", async () => {
    await loadLanguagesOf(bodies.map((body) => body.html));
    const cacheDir = freshCacheDir();
    const cold = countingRenderer();
    const first = await build(cacheDir, cold);
    expect(cold.calls).toHaveLength(bodies.length);

    const warm = countingRenderer();
    const second = await build(cacheDir, warm);
    expect(warm.calls).toEqual([]);
    expect(second.counts).toEqual({ reused: bodies.length, rendered: 0, damaged: 0 });
    expect(second.html).toEqual(first.html);
    expect(second.html).toEqual(bodies.map(({ html, content }) => renderCommentBody(html, content).html));
  });

  it("renders a changed body again, and only it", async () => {
    const cacheDir = freshCacheDir();
    await build(cacheDir, countingRenderer());
    const changed = bodies.map((body, i) => (i === 7 ? { ...body, html: "<p>comment 7, edited</p>" } : body));
    const renderer = countingRenderer();
    const { html } = await build(cacheDir, renderer, changed);
    expect(renderer.calls).toEqual(["<p>comment 7, edited</p>"]);
    expect(html[7]).toBe("<p>comment 7, edited</p>");
  });

  it("renders everything again for a new renderer version (a release of the package or of PrismJS)", async () => {
    const cacheDir = freshCacheDir();
    await build(cacheDir, countingRenderer("astro-comments 0.1.0 prismjs 1.30.0 render 6"));
    const next = countingRenderer("astro-comments 0.1.1 prismjs 1.30.0 render 6");
    await build(cacheDir, next);
    expect(next.calls).toHaveLength(bodies.length);
    // The old version's entries are pruned, not kept beside the new ones.
    expect(unpackEntries(readFileSync(packFile(cacheDir), "utf8")).entries.size).toBe(bodies.length);
  });

  it("derives the package's renderer version from the package, PrismJS and the render version", () => {
    const { version } = packageRenderer();
    const versionOf = (name: string) =>
      (createRequire(import.meta.url)(`${name}/package.json`) as { version: string }).version;
    expect(version).toBe(
      `astro-comments ${versionOf("astro-comments")} prismjs ${versionOf("prismjs")} render ${RENDER_VERSION}`,
    );
  });

  it("renders a damaged or foreign entry again and never shows it; the rest of its file is used", async () => {
    const cacheDir = freshCacheDir();
    await build(cacheDir, countingRenderer());
    const lines = readFileSync(packFile(cacheDir), "utf8").split("\n");
    // One entry's HTML changed on disk (its seal no longer matches), one line cut short.
    lines[2] = lines[2]!.replace("comment", "<script>alert(1)</script>");
    lines[5] = lines[5]!.slice(0, 40);
    writeFileSync(packFile(cacheDir), lines.join("\n"));

    const renderer = countingRenderer();
    const { html, counts } = await build(cacheDir, renderer);
    expect(renderer.calls).toHaveLength(2);
    expect(counts).toEqual({ reused: bodies.length - 2, rendered: 2, damaged: 2 });
    expect(html.join("")).not.toContain("<script>");
    expect(html).toEqual(bodies.map(({ html, content }) => renderCommentBody(html, content).html));
    // Written anew, whole again.
    expect(unpackEntries(readFileSync(packFile(cacheDir), "utf8"))).toMatchObject({ damaged: 0 });
  });

  it("drops the entries no page uses any more, and keeps those retained for pages rendered earlier", async () => {
    expect(await afterOneNewBody((cache) => cache.retain(SHARD, bodies.slice(0, 5)))).toBe(6);
  });

  it("writes a shard's pack when the shard is saved and lets it go: nothing later changes that file", async () => {
    const kept = await afterOneNewBody((cache) => {
      cache.save(SHARD);
      expect(cache.read(SHARD)).toBe(false);
      // Too late for this sync's pack: the bodies it had when saved are what it holds.
      cache.retain(SHARD, bodies);
      cache.keepAll(SHARD);
    });
    expect(kept).toBe(1);
  });

  it("bounds a pack: entries past its size are left out", () => {
    const entries = Array.from(
      { length: 100 },
      (_, i) =>
        [i.toString(16).padStart(32, "0"), { html: "x".repeat(100), unknownLanguages: [] as string[] }] as const,
    );
    const packed = [...packLines(entries, 5_000)].map((line) => `${line}\n`).join("");
    expect(Buffer.byteLength(packed)).toBeLessThanOrEqual(5_000);
    expect(unpackEntries(packed)).toMatchObject({ damaged: 0 });
    expect(unpackEntries(packed).entries.size).toBeGreaterThan(10);
  });

  it("a write that fails warns once and fails nothing: the bodies were rendered all the same", async () => {
    const root = mkdtempSync(join(tmpdir(), "ac-render-cache-"));
    // A file where the cache folder belongs.
    writeFileSync(join(root, "astro-comments"), "");
    const renderer = countingRenderer();
    const { html, warnings: lines } = await build(pathToFileURL(`${root}/`), renderer);
    expect(html).toHaveLength(bodies.length);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/could not save the rendered comments to .*render.*next one renders them again/);

    // Packs saved shard by shard as a sync stores them: still one warning for the sync.
    const { logger, lines: more } = warnings();
    const cache = renderCache(pathToFileURL(`${root}/`), logger, countingRenderer());
    for (const shard of [1, 2, 3]) {
      (await cache.renderer(shard))("<p>x</p>", "x");
      cache.save(shard);
    }
    await cache.finish();
    expect(more).toHaveLength(1);
  });

  it("the XSS corpus renders to the same safe markup with the cache cold and warm", async () => {
    const corpus = [...hostileBodies, ...xssBodies].map((html, i) => ({ html, content: `vector ${i}` }));
    await loadLanguagesOf(corpus.map((body) => body.html));
    const cacheDir = freshCacheDir();
    const cold = await build(cacheDir, countingRenderer(), corpus);
    const renderer = countingRenderer();
    const warm = await build(cacheDir, renderer, corpus);
    expect(renderer.calls).toEqual([]);
    const expected = corpus.map(({ html, content }) => renderCommentBody(html, content).html);
    expect(cold.html).toEqual(expected);
    expect(warm.html).toEqual(expected);
    for (const html of warm.html) expect(disallowedMarkup(html)).toEqual([]);
  });

  it("two builds writing one folder at once leave a valid cache", async () => {
    const cacheDir = freshCacheDir();
    const module = new URL("../../src/loader/render-cache.ts", import.meta.url).href;
    // Two processes, as two builds are, each rendering its own half and more.
    const script = (from: number) =>
      `import { packageRenderer, renderCache } from ${JSON.stringify(module)};
       const cache = renderCache(new URL(${JSON.stringify(cacheDir.href)}), console, packageRenderer());
       const render = await cache.renderer(${SHARD});
       for (let i = ${from}; i < ${from} + 400; i++) render("<p>body " + i + "</p>", "body " + i);
       await cache.finish();`;
    const run = promisify(execFile);
    await Promise.all([0, 200].map((from) => run(process.execPath, ["--input-type=module", "-e", script(from)])));
    const dir = join(fileURLToPath(cacheDir), "astro-comments", "render");
    expect(readdirSync(dir)).toEqual([`bodies-${SHARD}.txt`]);
    const { entries, damaged } = unpackEntries(readFileSync(packFile(cacheDir), "utf8"));
    expect(damaged).toBe(0);
    // One build's whole pack, the last to finish: 400 entries, each its body's rendering.
    expect(entries.size).toBe(400);
    const renderer = countingRenderer(packageRenderer().version);
    const render = await renderCache(cacheDir, warnings().logger, renderer).renderer(SHARD);
    for (let i = 0; i < 600; i++) expect(render(`<p>body ${i}</p>`, `body ${i}`).html).toBe(`<p>body ${i}</p>`);
    expect(renderer.calls).toHaveLength(200);
  });
});

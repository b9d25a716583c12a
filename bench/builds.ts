// One build of a variant of the bench blog (bench/site/<variant>), in its own process
// (bench/measure-build.ts) so its peak RSS is its own, read back with what its log says about
// where the time went.
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { trackChild } from "./child-processes.ts";
import type { BuildMeasurement } from "./measure-build.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * The variants, each an Astro root of its own, so that no cache (Astro's .astro folder, its
 * cacheDir and Vite's, both under the root's node_modules) is shared between them.
 * - baseline: the blog's 2,000 pages from the `posts` collection, no comments;
 * - comments: the same with <Comments /> on every page, the integration's defaults;
 * - floor: the baseline's pages plus the package's crawl of every comment, nothing kept;
 * - output: the baseline's pages, each with the comments section a comments build wrote, read from
 *   a file as the page renders (bench/output-floor.ts): the pages' size, no comment work;
 * - incremental: comments with Astro's incremental builds, each page's cacheKey its comments' digest.
 */
export type Variant = "baseline" | "comments" | "floor" | "output" | "incremental";

export const siteRoot = (variant: Variant) => join(root, "bench/site", variant);

/**
 * A cold build's start: the variant's .astro folder and its node_modules deleted. The variant roots
 * install nothing (packages resolve from the repository's node_modules), so their node_modules
 * holds only caches: Astro's cacheDir (data store, the loader's copy, the page cache) and Vite's.
 */
export function clearCaches(variant: Variant): void {
  for (const dir of [".astro", "node_modules"]) rmSync(join(siteRoot(variant), dir), { recursive: true, force: true });
}

export interface LoaderSummary {
  comments: number;
  pages: number;
  /** Pages whose comments the loader sanitized and highlighted (0 when nothing changed). */
  rendered: number;
  fetchSeconds: number;
  /** Requests the build sent: 0 when it used the crawl a check left. */
  requests: number;
  /** It used the crawl `astro-comments check` left (issue 34). */
  reusedCheck: boolean;
}

export interface BuildRun {
  seconds: number;
  /** CPU time of the build process (all its threads), seconds. */
  cpuSeconds: number;
  peakMiB: number;
  /** Astro's phases (its own timer), seconds: the content sync, Vite's bundle, and page generation (render or restore). */
  sync: number;
  bundle: number;
  generate: number;
  /** Seconds from the build's start until "[content] Synced content" and "generating static routes". */
  syncedAt: number;
  pagesAt: number;
  /** Pages Astro rendered, and pages it restored from the incremental-build cache. */
  pagesRendered: number;
  pagesRestored: number;
  /** The comments loader's summary line (the comments and incremental variants). */
  loader: LoaderSummary | undefined;
  /** The floor loader's crawl, seconds. */
  floorCrawlSeconds: number | undefined;
}

const count = (text: string) => Number(text.replaceAll(",", ""));

/**
 * "53,334 comments on 2,000 pages: 0 rendered, 2,000 unchanged, 0 removed (6.6 s, 400 requests of 100, 29.2 MiB)",
 * or "… (reused the crawl astro-comments check made 3 s ago: 400 requests of 100, 29.2 MiB; no request now)"
 */
const LOADER_LINE =
  /([\d,]+) comments? on ([\d,]+) pages?: ([\d,]+) rendered,.*\((?:([\d.]+) s, ([\d,]+) requests?|(reused the crawl astro-comments check))/;
/** "crawled 40000 comments and 13334 replies and kept none (7.0 s, 400 requests)", bench/site/shared/crawl-only.ts */
const FLOOR_LINE = /crawled \d+ comments and \d+ replies and kept none \(([\d.]+) s/;

function parseLoaderLine(output: string): LoaderSummary | undefined {
  const match = LOADER_LINE.exec(output);
  if (match === null) return undefined;
  const [, comments, pages, rendered, fetchSeconds, requests, reused] = match as unknown as string[];
  return {
    comments: count(comments!),
    pages: count(pages!),
    rendered: count(rendered!),
    fetchSeconds: reused ? 0 : Number(fetchSeconds),
    requests: reused ? 0 : count(requests!),
    // Used, and no crawl started after all.
    reusedCheck: reused !== undefined && !output.includes("fetching comments of"),
  };
}

/**
 * Lets a build start with nothing left for the disk to write: the disk still flushing what the
 * builds and the check before it wrote (70 MB of pages each) made one build's page generation take
 * twice another's for the same work. Where there is no sync(1) (Windows), nothing happens.
 */
export function flushWrites(): void {
  spawnSync("sync", { stdio: "ignore" });
}

/**
 * Builds `variant` with `env` added to this process's environment; the whole log goes to `logFile`.
 * The build starts without the previous build's dist/, as a CI checkout does: Astro empties an
 * existing one first, and deleting 2,000 pages just written took up to 10 s on this machine's
 * disk, noise that would land on warm builds only. And it starts after flushWrites.
 */
export function runBuild(variant: Variant, env: Record<string, string>, logFile: string): Promise<BuildRun> {
  rmSync(join(siteRoot(variant), "dist"), { recursive: true, force: true });
  flushWrites();
  return new Promise((resolve, reject) => {
    const child = trackChild(
      spawn(process.execPath, ["bench/measure-build.ts", siteRoot(variant)], {
        cwd: root,
        env: { ...process.env, ...env, ASTRO_TELEMETRY_DISABLED: "1", NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      // Kept for reading where a build spent its time; bench-results/ is git-ignored.
      writeFileSync(logFile, output);
      const last = output.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !last.startsWith("{"))
        return reject(
          new Error(`the ${variant} build failed (${signal ?? code}); its log is ${logFile}:\n${output.slice(-3000)}`),
        );
      const measured = JSON.parse(last) as BuildMeasurement;
      const phase = (...names: string[]) => names.reduce((sum, name) => sum + (measured.phases[name] ?? 0), 0) / 1000;
      const lineAt = (pattern: RegExp) =>
        (measured.timeline.find(([, line]) => pattern.test(line))?.[0] ?? Number.NaN) / 1000;
      // Route lines: "├─ /a/index.html (+25ms)" when rendered, "(restored)" or "(cached)" when skipped.
      const routes = output.split("\n").filter((line) => line.includes("├─ "));
      const floor = FLOOR_LINE.exec(output);
      resolve({
        seconds: measured.ms / 1000,
        cpuSeconds: measured.cpuMs / 1000,
        peakMiB: measured.maxRssKiB / 1024,
        sync: phase("Sync content layer"),
        bundle: phase("Prerender build", "Client build", "SSR build"),
        generate: phase("Static generate"),
        syncedAt: lineAt(/\[content\] Synced content/),
        pagesAt: lineAt(/generating static routes/),
        pagesRendered: routes.filter((line) => /\(\+[\d.]+m?s\)/.test(line)).length,
        pagesRestored: routes.filter((line) => /\((restored|cached)\)/.test(line)).length,
        loader: parseLoaderLine(output),
        floorCrawlSeconds: floor ? Number(floor[1]) : undefined,
      });
    });
  });
}

/**
 * Size and modification time of every file of the integration that the bench blog loads (its
 * build output and components, and the crawl's sources, which the floor variant imports). The integration may be rebuilt while the bench runs; then
 * rows measured before and after differ in code, not only in noise, and the report says so.
 */
export function integrationFingerprint(): string {
  const dir = join(root, "packages/astro-comments");
  return ["dist", "components", "src/api"]
    .flatMap((sub) =>
      readdirSync(join(dir, sub), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => join(entry.parentPath, entry.name)),
    )
    .sort()
    .map((file) => {
      const stat = statSync(file);
      return `${file} ${stat.size} ${stat.mtimeMs}`;
    })
    .join("\n");
}

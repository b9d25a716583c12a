// Comment pages against one page for everything (issue 39): the 1,000-comment post (600 threads,
// every third with 2 replies) and one thread of 200,000 replies, each built with the integration's
// defaults (split) and with `pages: false` (unsplit), interleaved, 3 cold runs each, and beside
// them the page floor: the pages the split build wrote, written again by a site without comments
// (bench/site/page-floor), which is what Astro alone costs for them. Prints build time and the
// build process's peak RSS (median and range), and the heaviest page's elements and bytes.
// `npm run bench:long-threads`; the site is bench/site/long-threads.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startMockServer } from "@astro-comments/mock-server";
import { manyThreads, oneLongThread } from "../packages/astro-comments/test/helpers/long-threads.ts";
import { flushWrites } from "./builds.ts";
import { trackChild } from "./child-processes.ts";
import type { BuildMeasurement } from "./measure-build.ts";
import { formatNumber, formatRange, machineLine, markdownTable, spread } from "./report.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const site = join(root, "bench/site/long-threads");
const pageFloor = join(root, "bench/site/page-floor");
const RUNS = 3;
const POST = "/posts/busy";

const datasets = {
  "1,000 comments (600 threads)": manyThreads(POST),
  "one thread of 200,000 replies": oneLongThread(POST, 200_000),
};
/** Where the split build's pages are copied for the page floor, one folder per dataset. */
const pageFiles = mkdtempSync(join(tmpdir(), "ac-page-floor-"));
const variants = {
  split: { root: site, env: { BENCH_PAGES: "on" } },
  unsplit: { root: site, env: { BENCH_PAGES: "off" } },
  "page floor: the split pages, no comments": { root: pageFloor, env: { PAGE_FILES: pageFiles } },
} as const;

/** One cold build of `siteRoot` in its own process, so its peak RSS is its own. */
function build(siteRoot: string, env: Record<string, string>): Promise<BuildMeasurement> {
  for (const dir of [".astro", "node_modules", "dist"]) rmSync(join(siteRoot, dir), { recursive: true, force: true });
  flushWrites();
  return new Promise((resolve, reject) => {
    const child = trackChild(
      spawn(process.execPath, ["bench/measure-build.ts", siteRoot], {
        cwd: root,
        env: { ...process.env, ...env, ASTRO_TELEMETRY_DISABLED: "1", NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => {
      const last = output.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !last.startsWith("{")) reject(new Error(`build failed (${code}):\n${output.slice(-3000)}`));
      else resolve(JSON.parse(last) as BuildMeasurement);
    });
  });
}

/** The HTML files a build of `siteRoot` wrote. */
const htmlFiles = (siteRoot: string) =>
  readdirSync(join(siteRoot, "dist"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".html"));

/** The heaviest built page: its elements and bytes. */
function heaviestPage(siteRoot: string): { elements: number; bytes: number; pages: number } {
  const files = htmlFiles(siteRoot);
  let elements = 0;
  let bytes = 0;
  for (const file of files) {
    const html = readFileSync(join(siteRoot, "dist", file), "utf8");
    // Start tags: comment bodies are sanitized and code is escaped, so "<" and a letter is a tag.
    elements = Math.max(elements, html.match(/<[a-z]/gi)?.length ?? 0);
    bytes = Math.max(bytes, Buffer.byteLength(html));
  }
  return { elements, bytes, pages: files.length };
}

console.log(machineLine());
const rows: string[][] = [];
for (const [name, comments] of Object.entries(datasets)) {
  const mock = await startMockServer({
    data: { format: "comments-mock-data", version: 1, domain: "example.com", comments },
  });
  const env = { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: mock.token };
  const runs = new Map<string, { seconds: number[]; peakMiB: number[]; page: ReturnType<typeof heaviestPage> }>();
  rmSync(pageFiles, { recursive: true, force: true });
  try {
    for (let run = 0; run < RUNS; run++) {
      for (const [variant, { root: variantRoot, env: variantEnv }] of Object.entries(variants)) {
        const measured = await build(variantRoot, { ...env, ...variantEnv });
        // The split build goes first: its first pages are the page floor's for this dataset.
        if (run === 0 && variant === "split")
          for (const file of htmlFiles(site)) cpSync(join(site, "dist", file), join(pageFiles, file));
        const entry = runs.get(variant) ?? { seconds: [], peakMiB: [], page: heaviestPage(variantRoot) };
        entry.seconds.push(measured.ms / 1000);
        entry.peakMiB.push(measured.maxRssKiB / 1024);
        runs.set(variant, entry);
        console.log(
          `${name}, ${variant}, run ${run + 1}: ${formatNumber(measured.ms / 1000, 1)} s, ${formatNumber(measured.maxRssKiB / 1024)} MiB`,
        );
      }
    }
  } finally {
    await mock.close();
  }
  rmSync(pageFiles, { recursive: true, force: true });
  for (const [variant, { seconds, peakMiB, page }] of runs) {
    const time = spread(seconds);
    const peak = spread(peakMiB);
    rows.push([
      name,
      variant,
      `${formatNumber(time.median, 1)} (${formatRange(time, 1)})`,
      `${formatNumber(peak.median)} (${formatRange(peak)})`,
      formatNumber(page.pages),
      formatNumber(page.elements),
      formatNumber(page.bytes / 1000),
    ]);
  }
}
console.log(
  markdownTable(
    [
      "comments",
      "pages",
      "build s, median (range)",
      "peak RSS MiB, median (range)",
      "HTML files",
      "most elements on a page",
      "largest page KB",
    ],
    ["left", "left", "right", "right", "right", "right", "right"],
    rows,
  ),
);

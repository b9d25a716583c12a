// npm run bench: what comments cost a 2,000-page Astro build, next to the same site without them,
// every figure measured in this run. The mock runs in its own process with 50 ms added to each
// request. Each round runs every measurement once, in the same order (crawls, builds, sanitizer,
// mock throughput), so drift on this shared machine hits all rows alike; the table gives the
// median and range over the rounds, and every comparison is made between medians.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegrationLogger } from "astro";
import { request } from "undici";
import type { BuildMeasurement } from "../bench/measure-build.ts";
import { formatNumber, formatPercent, formatRange, machineLine, markdownTable, spread, type Spread } from "../bench/report.ts";
import { generateDataset } from "../mock-server/src/index.ts";
import { fetchAllComments } from "../packages/astro-comments/src/fetch-comments.ts";
import { resolveOptions } from "../packages/astro-comments/src/options.ts";
import { pathKey } from "../packages/astro-comments/src/render/path-key.ts";
import { measureMockThroughput, type MockThroughput } from "./bench-mock.ts";
import { measureSanitizerRates, sanitizerBodies, sanitizers } from "./bench-sanitizer.ts";
import { startMockProcess, trackChild, type MockProcess } from "./mock-process.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const site = join(root, "bench/site");
const resultsDir = join(root, "bench-results");
const benchStarted = performance.now();
const startedAt = new Date();

// The issue's setup: these stay fixed. BENCH_ROUNDS exists to try the script out quickly; a
// figure from fewer than 3 rounds has no meaningful median.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LATENCY_MS = 50;
const PER_PAGE = 50;
const DOMAIN = "example.com";
const TOKEN = "bench-token";
const dataset = { seed: 1, size: 22_000, paths: 2_000, domains: [[DOMAIN, 1]] as const };
const PAGES = 2_000;
const DEFAULT_CONCURRENCY = 6;
const SANITIZER_ROUNDS_PER_ROUND = 3;
const SANITIZER_SAMPLE_MS = 150;
const MOCK_MEASURE_MS = 3_000;

// The issue's targets, checked against the medians.
const TARGETS = { coldOverhead: 0.75, warmOverhead: 0.65, coldRssMiB: 120, warmRssMiB: 77, crawlVsIdeal: 1.15, sanitizerSpeedUp: 5 };

const log = (message: string) => process.stderr.write(`${message}\n`);
const seconds = (ms: number) => ms / 1000;

// ---------------------------------------------------------------------------------------------
// Crawls: ours (the loader's own fetch: same client, same defaults) and the sequential baseline.

interface CrawlRun {
  seconds: number;
  requests: number;
  bytes: number;
  threads: number;
  replies: number;
}

// fetchAllComments reports through Astro's logger; here progress stays quiet and retries show.
const crawlLogger = { info: () => {}, debug: () => {}, error: () => {}, warn: (message: string) => log(`  crawl: ${message}`) } as unknown as AstroIntegrationLogger;

async function crawlOurs(url: string, concurrency: number): Promise<CrawlRun> {
  const options = resolveOptions({ concurrency }, { COMMENTS_DOMAIN: DOMAIN, COMMENTS_API_URL: url, COMMENTS_API_TOKEN: TOKEN });
  const { threads, summary } = await fetchAllComments(options.credentials!, options, crawlLogger);
  return { seconds: summary.seconds, requests: summary.requests, bytes: summary.bytes, threads: threads.length, replies: threads.reduce((n, t) => n + t.children.length, 0) };
}

/** One page after another, as the hosted service's official plugin fetches (no validation, no retries). */
async function crawlSequential(url: string): Promise<CrawlRun> {
  const started = performance.now();
  let page = 1;
  let lastPage = 1;
  let requests = 0;
  let bytes = 0;
  let threads = 0;
  let replies = 0;
  do {
    const response = await request(`${url}/api/comments?domain=${DOMAIN}&per_page=${PER_PAGE}&page=${page}`, { headers: { authorization: `Bearer ${TOKEN}`, accept: "application/json" } });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`sequential crawl: page ${page} answered ${response.statusCode}: ${text.slice(0, 200)}`);
    const body = JSON.parse(text) as { data: Array<{ children: unknown[] }>; meta: { last_page: number } };
    requests++;
    bytes += Buffer.byteLength(text);
    threads += body.data.length;
    replies += body.data.reduce((n, t) => n + t.children.length, 0);
    lastPage = body.meta.last_page;
    page++;
  } while (page <= lastPage);
  return { seconds: seconds(performance.now() - started), requests, bytes, threads, replies };
}

/** The fastest any crawl can be: page 1 alone (it says how many pages there are), then the rest `concurrency` at a time, each taking the added latency. */
const idealSeconds = (requests: number, concurrency: number) => seconds(LATENCY_MS * (1 + Math.ceil((requests - 1) / concurrency)));

// ---------------------------------------------------------------------------------------------
// Builds: each in its own process (bench/measure-build.ts) for its peak RSS.

interface BuildVariant {
  key: string;
  label: string;
  comments: boolean;
  concurrency?: number;
  /** Delete Astro's data store, the loader's own copy and the incremental cache first. */
  cold?: boolean;
  /** Astro 7.2's experimental.incrementalBuild (BENCH_INCREMENTAL=1); without it, Astro's defaults. */
  incremental?: boolean;
  /** Add one approved comment through the mock's admin route before building. */
  addComment?: boolean;
}

// In this order, every round. The first builds use Astro's defaults, like the comment-free
// baseline: the warm one follows the cold one. Then the same with incremental builds: the cold
// one also fills Astro's page cache, the warm one restores every page from it, the last one adds
// a comment. Turning incremental builds on changes the Astro config, which makes Astro clear its
// data store: that build is cold anyway.
const variants: readonly BuildVariant[] = [
  { key: "without", label: "without comments (baseline)", comments: false },
  { key: "cold16", label: "with comments, cold, concurrency 16", comments: true, concurrency: 16, cold: true },
  { key: "cold", label: `with comments, cold, concurrency ${DEFAULT_CONCURRENCY} (default)`, comments: true, cold: true },
  { key: "warmAll", label: "with comments, warm: nothing changed, every page rendered", comments: true },
  { key: "coldIncremental", label: "with comments and incremental builds, cold (Astro also fills its page cache)", comments: true, cold: true, incremental: true },
  { key: "warm", label: "with comments and incremental builds, warm: nothing changed", comments: true, incremental: true },
  { key: "incremental", label: "with comments and incremental builds: 1 new comment", comments: true, incremental: true, addComment: true },
];

interface LoaderSummary {
  comments: number;
  pages: number;
  rendered: number;
  unchanged: number;
  removed: number;
  fetchSeconds: number;
  requests: number;
}

interface BuildRun {
  seconds: number;
  peakMiB: number;
  /** Astro's phases (its own timer), seconds: Vite's bundle, and page generation (render or restore). */
  bundle: number;
  generate: number;
  /** Seconds from the build's start until the loader's summary line, "[content] Synced content", and "generating static routes". */
  loaderDoneAt: number;
  syncedAt: number;
  pagesAt: number;
  /** Pages Astro rendered, and pages it restored from the incremental-build cache. */
  pagesRendered: number;
  pagesRestored: number;
  /** The loader's summary line, undefined for the comment-free build (or if the line was not found). */
  loader: LoaderSummary | undefined;
}

const count = (text: string) => Number(text.replaceAll(",", ""));

/** "52,150 comments on 2,006 pages: 0 rendered, 2,006 unchanged, 0 removed (5.7 s, 440 requests, 38.3 MiB)" */
const LOADER_LINE = /([\d,]+) comments? on ([\d,]+) pages?: ([\d,]+) rendered, ([\d,]+) unchanged, ([\d,]+) removed \(([\d.]+) s, ([\d,]+) requests?/;

function parseLoaderLine(output: string): LoaderSummary | undefined {
  const match = LOADER_LINE.exec(output);
  if (match === null) return undefined;
  const [, comments, pages, rendered, unchanged, removed, fetchSeconds, requests] = match as unknown as string[];
  return { comments: count(comments!), pages: count(pages!), rendered: count(rendered!), unchanged: count(unchanged!), removed: count(removed!), fetchSeconds: Number(fetchSeconds), requests: count(requests!) };
}

function runBuild(env: Record<string, string>, logFile: string): Promise<BuildRun> {
  return new Promise((resolve, reject) => {
    const child = trackChild(spawn(process.execPath, ["bench/measure-build.ts", site], {
      cwd: root,
      env: { ...process.env, ...env, ASTRO_TELEMETRY_DISABLED: "1", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    }));
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      // Kept for reading where a build spent its time; bench-results/ is git-ignored.
      writeFileSync(logFile, output);
      const last = output.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !last.startsWith("{")) return reject(new Error(`build failed (${signal ?? code}); its log is ${logFile}:\n${output.slice(-3000)}`));
      const measured = JSON.parse(last) as BuildMeasurement;
      const phase = (...names: string[]) => seconds(names.reduce((sum, name) => sum + (measured.phases[name] ?? 0), 0));
      const lineAt = (pattern: RegExp) => seconds(measured.timeline.find(([, line]) => pattern.test(line))?.[0] ?? Number.NaN);
      // Route lines: "├─ /a/index.html (+25ms)" when rendered, "(restored)" or "(cached)" when skipped.
      const routes = output.split("\n").filter((line) => line.includes("├─ "));
      resolve({
        seconds: seconds(measured.ms),
        peakMiB: measured.maxRssKiB / 1024,
        bundle: phase("Prerender build", "Client build", "SSR build"),
        generate: phase("Static generate"),
        loaderDoneAt: lineAt(LOADER_LINE),
        syncedAt: lineAt(/\[content\] Synced content/),
        pagesAt: lineAt(/generating static routes/),
        pagesRendered: routes.filter((line) => /\(\+[\d.]+m?s\)/.test(line)).length,
        pagesRestored: routes.filter((line) => /\((restored|cached)\)/.test(line)).length,
        loader: parseLoaderLine(output),
      });
    });
  });
}

/**
 * Size and modification time of every file of the integration that the bench site loads (its
 * build output and its components). The integration may be rebuilt while the bench runs; then
 * rows measured before and after differ in code, not only in noise, and the report says so.
 */
function integrationFingerprint(): string {
  const dir = join(root, "packages/astro-comments");
  return ["dist", "components"]
    .flatMap((sub) => readdirSync(join(dir, sub), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name)))
    .sort()
    .map((file) => {
      const stat = statSync(file);
      return `${file} ${stat.size} ${stat.mtimeMs}`;
    })
    .join("\n");
}

// ---------------------------------------------------------------------------------------------
// Setup: the bench site's pages, the comment the incremental build gets, the mock.

log(`astro-comments benchmark: ${ROUNDS} round${ROUNDS === 1 ? "" : "s"}; the table comes at the end (about 10 minutes)`);
if (ROUNDS < 3) log(`BENCH_ROUNDS=${ROUNDS}: fewer than 3 rounds, so the medians below are not meaningful`);
/** The bench site's pages, and the top-level comment the incremental build's new comment replies to. */
function planSite(): { pages: string[]; commentedPath: string; parentId: number } {
  const comments = generateDataset(dataset);
  const pages = [...new Set(comments.filter((c) => c.domain === DOMAIN).map((c) => pathKey(c.path)))].slice(0, PAGES);
  if (pages.length !== PAGES) throw new Error(`the dataset has ${pages.length} paths, not ${PAGES}`);
  // A page in the middle of the site. A reply does not count toward per_page, so every round
  // crawls the same 440 pages however many rounds have added one.
  const commentedPath = pages[PAGES / 2]!;
  const parent = comments.find((c) => c.domain === DOMAIN && c.parentId === null && c.status === "approved" && pathKey(c.path) === commentedPath);
  if (parent === undefined) throw new Error(`no approved top-level comment on ${commentedPath} to reply to`);
  return { pages, commentedPath, parentId: parent.id };
}
const { pages, commentedPath, parentId } = planSite();
const workDir = mkdtempSync(join(tmpdir(), "ac-bench-"));
const pathsFile = join(workDir, "paths.json");
writeFileSync(pathsFile, JSON.stringify(pages));
mkdirSync(join(resultsDir, "logs"), { recursive: true });

async function addComment(url: string, round: number): Promise<void> {
  const response = await request(`${url}/__admin/comments`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ replyTo: parentId, name: "Bench reader", content: `One more comment, round ${round}.` }),
  });
  const text = await response.body.text();
  // The mock generates the same dataset from the same options; the answer proves the id matched.
  const added = JSON.parse(text) as { path?: string; status?: string };
  if (response.statusCode !== 201 || pathKey(added.path ?? "") !== commentedPath || added.status !== "approved") {
    throw new Error(`adding a comment on ${commentedPath} failed (${response.statusCode}): ${text.slice(0, 300)}`);
  }
}

const crawlRuns = { sequential: [] as CrawlRun[], ours6: [] as CrawlRun[], ours16: [] as CrawlRun[] };
const buildRuns = new Map<string, BuildRun[]>(variants.map((variant) => [variant.key, []]));
const sanitizerRates = sanitizers.map((): number[] => []);
const mockRuns: MockThroughput[] = [];
// The 1-minute load average before each build, and the builds before which the integration had changed.
const loads: number[] = [];
const rebuilds: string[] = [];
let fingerprint: string | undefined;

let mock: MockProcess | undefined;
try {
  mock = await startMockProcess(["--token", TOKEN, "--seed", String(dataset.seed), "--size", String(dataset.size), "--paths", String(dataset.paths), "--domains", DOMAIN, "--latency", String(LATENCY_MS)]);
  const url = mock.url;
  const siteEnv = { BENCH_PATHS_FILE: pathsFile, COMMENTS_DOMAIN: DOMAIN, COMMENTS_API_URL: url, COMMENTS_API_TOKEN: TOKEN };
  for (let round = 1; round <= ROUNDS; round++) {
    const tag = `[round ${round}/${ROUNDS}]`;
    for (const [name, crawl] of [["sequential", () => crawlSequential(url)], ["ours6", () => crawlOurs(url, 6)], ["ours16", () => crawlOurs(url, 16)]] as const) {
      const run = await crawl();
      crawlRuns[name].push(run);
      log(`${tag} crawl ${name}: ${run.seconds.toFixed(2)} s, ${run.requests} requests`);
    }
    for (const variant of variants) {
      if (variant.cold) {
        rmSync(join(site, "node_modules/.astro"), { recursive: true, force: true });
        rmSync(join(site, ".astro"), { recursive: true, force: true });
      }
      if (variant.addComment) await addComment(url, round);
      const current = integrationFingerprint();
      if (fingerprint !== undefined && current !== fingerprint) {
        rebuilds.push(`round ${round}, before ${variant.key}`);
        log(`${tag} packages/astro-comments changed since the last build: the rows mix two versions of the integration`);
      }
      fingerprint = current;
      loads.push(loadavg()[0]!);
      const env = {
        ...siteEnv,
        BENCH_COMMENTS: variant.comments ? "1" : "0",
        BENCH_CONCURRENCY: String(variant.concurrency ?? DEFAULT_CONCURRENCY),
        BENCH_INCREMENTAL: variant.incremental ? "1" : "0",
      };
      const run = await runBuild(env, join(resultsDir, "logs", `round${round}-${variant.key}.log`));
      buildRuns.get(variant.key)!.push(run);
      const loader = run.loader ? `, loader ${run.loader.rendered} rendered` : "";
      log(`${tag} build ${variant.key}: ${run.seconds.toFixed(2)} s, ${run.peakMiB.toFixed(0)} MiB, pages ${run.pagesRendered} rendered / ${run.pagesRestored} restored${loader}`);
    }
    measureSanitizerRates(sanitizerBodies(), { rounds: SANITIZER_ROUNDS_PER_ROUND, sampleMs: SANITIZER_SAMPLE_MS }).forEach((rates, s) => sanitizerRates[s]!.push(...rates));
    log(`${tag} sanitizer: ${sanitizers.map(([name], s) => `${name} ${formatNumber(sanitizerRates[s]!.at(-1)!)} bodies/s`).join(", ")}`);
    const throughput = await measureMockThroughput({ measureMs: MOCK_MEASURE_MS });
    mockRuns.push(throughput);
    log(`${tag} mock: ${formatNumber(throughput.mock.rps)} req/s, node:http ${formatNumber(throughput.baseline.rps)} req/s`);
  }
} finally {
  await mock?.close();
  rmSync(workDir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------
// The table: one row per measurement, medians compared with medians.

const builds = (key: string) => buildRuns.get(key)!;
const buildSpread = (key: string, pick: (run: BuildRun) => number) => spread(builds(key).map(pick));
const baseline = { seconds: buildSpread("without", (r) => r.seconds).median, peakMiB: buildSpread("without", (r) => r.peakMiB).median };
const overhead = (key: string) => buildSpread(key, (r) => r.seconds).median / baseline.seconds - 1;
const rssOver = (key: string) => buildSpread(key, (r) => r.peakMiB).median - baseline.peakMiB;
const valueRange = (value: Spread, decimals: number, unit: string) => `${formatRange(value, decimals)}${unit}`;
const mib = (value: number) => `${value >= 0 ? "+" : "−"}${formatNumber(Math.abs(value))} MiB`;

/** "Astro's pages: 1 rendered, 1,999 restored · loader: R = 1, 1, 1 of 2,006 pages rendered · crawl 3.9 s · at 5.0 s loader done, 6.2 s content synced, 9.1 s pages begin (bundle 2.5 s, pages 1.2 s)" */
function buildDetail(key: string): string {
  const runs = builds(key);
  const m = (pick: (run: BuildRun) => number) => spread(runs.map(pick)).median;
  const parts = [`Astro's pages: ${formatNumber(m((r) => r.pagesRendered))} rendered, ${formatNumber(m((r) => r.pagesRestored))} restored`];
  const timeline: string[] = [];
  if (runs.some((r) => r.loader !== undefined)) {
    const loaded = runs.map((r) => r.loader);
    parts.push(`loader: R = ${loaded.map((l) => (l === undefined ? "?" : formatNumber(l.rendered))).join(", ")} of ${formatNumber(loaded.find((l) => l)?.pages ?? Number.NaN)} pages rendered`);
    parts.push(`crawl ${m((r) => r.loader?.fetchSeconds ?? Number.NaN).toFixed(1)} s`);
    timeline.push(`${m((r) => r.loaderDoneAt).toFixed(1)} s loader done`, `${m((r) => r.syncedAt).toFixed(1)} s content synced`);
  }
  timeline.push(`${m((r) => r.pagesAt).toFixed(1)} s pages begin`);
  parts.push(`at ${timeline.join(", ")} (bundle ${m((r) => r.bundle).toFixed(1)} s, pages ${m((r) => r.generate).toFixed(1)} s)`);
  return parts.join(" · ");
}

const rows: string[][] = [];
for (const variant of variants) {
  const time = buildSpread(variant.key, (r) => r.seconds);
  const rss = buildSpread(variant.key, (r) => r.peakMiB);
  const isBaseline = variant.key === "without";
  const label = variant.addComment ? `${variant.label} (a reply on ${commentedPath})` : variant.label;
  rows.push([
    `build ${label}`,
    `${time.median.toFixed(2)} s`,
    valueRange(time, 2, " s"),
    isBaseline ? "—" : formatPercent(overhead(variant.key)),
    `${formatNumber(rss.median)} (${formatRange(rss)})`,
    isBaseline ? "—" : mib(rssOver(variant.key)),
    buildDetail(variant.key),
  ]);
}

const crawlBytes = spread(crawlRuns.ours6.map((r) => r.bytes / 2 ** 20));
const sequential = spread(crawlRuns.sequential.map((r) => r.seconds));
const firstCrawl = crawlRuns.ours6[0]!;
rows.push(["raw JSON of the crawled comments", `${crawlBytes.median.toFixed(1)} MiB`, valueRange(crawlBytes, 1, " MiB"), "—", "", "", `${formatNumber(firstCrawl.requests)} responses; ${formatNumber(firstCrawl.threads)} top-level comments + ${formatNumber(firstCrawl.replies)} replies`]);
rows.push(["crawl: sequential, page by page (official plugin's way)", `${sequential.median.toFixed(2)} s`, valueRange(sequential, 2, " s"), "1.0×", "", "", `${formatNumber(crawlRuns.sequential[0]!.requests)} requests`]);
const crawlVsIdeal: Record<number, number> = {};
for (const [concurrency, runs] of [[6, crawlRuns.ours6], [16, crawlRuns.ours16]] as const) {
  const time = spread(runs.map((r) => r.seconds));
  const requests = runs[0]!.requests;
  const ideal = idealSeconds(requests, concurrency);
  crawlVsIdeal[concurrency] = time.median / ideal;
  rows.push([
    `crawl: astro-comments, concurrency ${concurrency}${concurrency === DEFAULT_CONCURRENCY ? " (default)" : ""}`,
    `${time.median.toFixed(2)} s`,
    valueRange(time, 2, " s"),
    `${(sequential.median / time.median).toFixed(1)}× faster`,
    "",
    "",
    `${formatNumber(requests)} requests; ${crawlVsIdeal[concurrency]!.toFixed(2)}× the ideal bound ${ideal.toFixed(2)} s (${LATENCY_MS} ms × (1 + ⌈${requests - 1} ÷ ${concurrency}⌉))`,
  ]);
}
const sanitizerSpreads = sanitizerRates.map((rates) => spread(rates));
const sanitizerSpeedUp = sanitizerSpreads[1]!.median / sanitizerSpreads[0]!.median;
sanitizers.forEach(([name], s) => {
  const rate = sanitizerSpreads[s]!;
  rows.push([`sanitizer: ${name}`, `${formatNumber(rate.median)} bodies/s`, valueRange(rate, 0, ""), s === 0 ? "1.0×" : `${sanitizerSpeedUp.toFixed(1)}×`, "", "", `${formatNumber(sanitizerBodies().length)} bodies of the mock's dataset; ${rate.runs} samples of ~${SANITIZER_SAMPLE_MS} ms, the two alternating`]);
});
const mockRps = spread(mockRuns.map((r) => r.mock.rps));
const bareRps = spread(mockRuns.map((r) => r.baseline.rps));
const latency = (pick: (run: MockThroughput) => { p50: number; p99: number }) => `p50 ${spread(mockRuns.map((r) => pick(r).p50)).median.toFixed(1)} ms, p99 ${spread(mockRuns.map((r) => pick(r).p99)).median.toFixed(1)} ms`;
rows.push(["mock API: Prism routing + validation, 50 per page", `${formatNumber(mockRps.median)} req/s`, valueRange(mockRps, 0, ""), `${(mockRps.median / bareRps.median).toFixed(2)}× node:http`, "", "", `${latency((r) => r.mock)}; ${mockRuns[0]!.connections} connections, ${MOCK_MEASURE_MS / 1000} s, ${(mockRuns[0]!.mock.bytes / 1024).toFixed(0)} KiB per response`]);
rows.push(["baseline: bare node:http, the same pages from memory", `${formatNumber(bareRps.median)} req/s`, valueRange(bareRps, 0, ""), "1.0×", "", "", latency((r) => r.baseline)]);

// ---------------------------------------------------------------------------------------------
// Targets, from the medians.

const verdict = (met: boolean) => (met ? "met" : "NOT met");
const warmRendered = [...builds("warmAll"), ...builds("warm")].map((r) => r.loader?.rendered);
const incremental = buildSpread("incremental", (r) => r.seconds);
const incrementalRuns = builds("incremental");
const targets = [
  `- cold build ≤ ${formatPercent(TARGETS.coldOverhead)} over the comment-free build at concurrency ${DEFAULT_CONCURRENCY}: ${formatPercent(overhead("cold"))} — ${verdict(overhead("cold") <= TARGETS.coldOverhead)} (at 16: ${formatPercent(overhead("cold16"))})`,
  `- warm build ≤ ${formatPercent(TARGETS.warmOverhead)}, with incremental builds: ${formatPercent(overhead("warm"))} — ${verdict(overhead("warm") <= TARGETS.warmOverhead)} (with Astro's defaults, every page rendered: ${formatPercent(overhead("warmAll"))})`,
  `- warm builds sanitized and highlighted nothing (loader's "R rendered" = 0): R = ${warmRendered.map((r) => r ?? "?").join(", ")} — ${verdict(warmRendered.every((r) => r === 0))}`,
  `- incremental build after 1 new comment: ${incremental.median.toFixed(2)} s (${valueRange(incremental, 2, " s")}), ${formatPercent(overhead("incremental"))} over the comment-free build; Astro rendered ${incrementalRuns.map((r) => r.pagesRendered).join("/")} and restored ${incrementalRuns.map((r) => formatNumber(r.pagesRestored)).join("/")} pages — reported`,
  `- peak RSS, cold ≤ +${TARGETS.coldRssMiB} MiB over comment-free: ${mib(rssOver("cold"))} — ${verdict(rssOver("cold") <= TARGETS.coldRssMiB)}`,
  `- peak RSS, warm ≤ +${TARGETS.warmRssMiB} MiB over comment-free, with incremental builds: ${mib(rssOver("warm"))} — ${verdict(rssOver("warm") <= TARGETS.warmRssMiB)} (Astro's defaults, every page rendered: ${mib(rssOver("warmAll"))})`,
  `- crawl ≤ ${TARGETS.crawlVsIdeal}× the ideal bound at concurrency ${DEFAULT_CONCURRENCY}: ${crawlVsIdeal[6]!.toFixed(2)}× — ${verdict(crawlVsIdeal[6]! <= TARGETS.crawlVsIdeal)} (at 16: ${crawlVsIdeal[16]!.toFixed(2)}×)`,
  `- sanitizer ≥ ${TARGETS.sanitizerSpeedUp}× sanitize-html: ${sanitizerSpeedUp.toFixed(1)}× — ${verdict(sanitizerSpeedUp >= TARGETS.sanitizerSpeedUp)}`,
];

const minutes = (seconds(performance.now() - benchStarted) / 60).toFixed(1);
const report = [
  `# astro-comments benchmark`,
  ``,
  `- machine: ${machineLine(startedAt)}`,
  `- dataset: ${formatNumber(firstCrawl.threads)} top-level comments + ${formatNumber(firstCrawl.replies)} replies on ${DOMAIN} (mock, seed ${dataset.seed}), ${LATENCY_MS} ms added to every request, per_page ${PER_PAGE}; the site has ${formatNumber(PAGES)} pages`,
  `- ${ROUNDS} round${ROUNDS === 1 ? "" : "s"}, each running every measurement once (crawls, then the builds in table order, the sanitizer, the mock; each build in its own process; cold = bench/site/node_modules/.astro and bench/site/.astro deleted first); median and range over the rounds; "vs baseline" compares medians; the bench took ${minutes} min`,
  `- noise: the 1-minute load average before the builds was ${formatRange(spread(loads), 1)} (median ${spread(loads).median.toFixed(1)}) on ${availableParallelism()} cores`,
  ...(rebuilds.length > 0 ? [`- **packages/astro-comments was rebuilt during the run** (${rebuilds.join("; ")}): rows measured before and after ran different code`] : []),
  `- build detail: R is the loader's "R rendered" (pages whose comments were sanitized and highlighted), one per run; crawl is the loader's own fetch time; "at" gives when the loader logged its summary, when Astro's content sync ended and when page generation began, in seconds since the build started; bundle (Vite) and pages (render or restore) are Astro's own timer`,
  ``,
  markdownTable(
    ["measurement", "median", "range", "vs baseline", "peak RSS MiB, median (range)", "RSS vs baseline", "detail (medians)"],
    ["left", "right", "right", "right", "right", "right", "left"],
    rows,
  ),
  ``,
  `Targets (from the medians):`,
  ...targets,
  ``,
].join("\n");

console.log(`\n${report}`);
writeFileSync(join(resultsDir, "latest.md"), report);
writeFileSync(join(resultsDir, "latest.json"), JSON.stringify({ startedAt, machine: machineLine(startedAt), crawlRuns, buildRuns: Object.fromEntries(buildRuns), sanitizerRates, mockRuns }, null, 2));
log(`written to bench-results/latest.md (raw runs in latest.json, build logs in logs/)`);

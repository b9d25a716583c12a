// The freshness check's cost (issue 21): `astro-comments check` as a user runs it (the packaged
// bin, a process of its own, its deployed state unchanged), against the mock in another process
// with 50 ms added to every answer, on issue 17's blog shape at 10k, 50k and 53k comments. Prints
// its wall time (median and range of the runs) and peak RSS beside issue 17's network floor F:
// the fewest requests the service allows × latency ÷ connections. `npm run bench:check` builds the
// bin first; BENCH_ROUNDS sets the runs per size (default 5). `npm run bench` puts one
// check per round beside its builds through measureCheck.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Pool } from "undici";
import {
  crawlComments,
  crawlDefaults,
  PREFERRED_PER_PAGE,
  type CrawlLogger,
} from "../packages/astro-comments/src/api/crawl-comments.ts";
import { credentialsFromEnv } from "../packages/astro-comments/src/api/credentials.ts";
import { undiciTransport } from "../packages/astro-comments/src/api/undici-transport.ts";
import { FreshnessStateCollector } from "../packages/astro-comments/src/freshness/freshness-state.ts";
import { startMockProcess } from "./child-processes.ts";
import { generateBlog, issue17Blog } from "./dataset.ts";
import { formatNumber, formatRange, machineLine, markdownTable, spread, type Spread } from "./report.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "packages/astro-comments/dist/cli/astro-comments.js");
const RUNS = Number(process.env.BENCH_ROUNDS ?? 5);
const LATENCY_MS = 50;
const TOKEN = "bench-token";
// Issue 17's shape (a reply to every third top-level comment) at 10,000 and 50,000 comments, and
// issue 17's blog itself (40,000 top-level, 53,334 in all).
const SIZES = [7_500, 37_500, issue17Blog.topLevel];
const TARGET = { ofFloor: 1.2, rssMiB: 150 };

const log = (message: string) => process.stderr.write(`${message}\n`);
const quiet: CrawlLogger = { info: () => {}, debug: () => {}, warn: (message) => log(`  crawl: ${message}`) };
// Reports the check's own peak RSS (KiB) as it exits, whatever its exit path.
const reportRss = `data:text/javascript,${encodeURIComponent('process.on("exit",()=>process.stderr.write("\\nmaxrss "+process.resourceUsage().maxRSS+"\\n"))')}`;

export interface CheckRun {
  seconds: number;
  rssMiB: number;
}

/**
 * One check against `statePath`. It leaves its crawl in `cacheDir` (a site's cache folder, or a
 * scratch folder where no build follows), never in this repository's node_modules. `expect`: what
 * it must answer, "unchanged" (exit 0) or, after an approval, "changed" (exit 1, a build follows).
 */
export function runCheck(
  env: Record<string, string>,
  statePath: string,
  cacheDir: string,
  expect: "unchanged" | "changed" = "unchanged",
): Promise<CheckRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const args = ["--import", reportRss, bin, "check", "--state", statePath, "--cache-dir", cacheDir];
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => {
      const seconds = (performance.now() - started) / 1000;
      const rss = /maxrss (\d+)/.exec(err);
      const answered =
        expect === "unchanged"
          ? code === 0 && out.includes("no approved comment changed")
          : code === 1 && out.includes("; build.");
      if (!answered || !rss)
        return reject(new Error(`the check did not answer "${expect}" (exit ${code}):\n${out}${err}`));
      resolve({ seconds, rssMiB: Number(rss[1]) / 1024 });
    });
  });
}

/**
 * The same requests with nothing done to the answers but reading them: page 1, then the rest over
 * as many connections as the crawl uses. What the mock and this machine allow at this moment.
 */
async function bareRequests(origin: string, requests: number): Promise<number> {
  const pool = new Pool(origin, { connections: crawlDefaults.concurrency });
  const started = performance.now();
  const get = async (page: number) => {
    const response = await pool.request({
      method: "GET",
      path: `/api/comments?domain=${issue17Blog.domain}&per_page=${PREFERRED_PER_PAGE}&page=${page}`,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    await response.body.text();
  };
  try {
    await get(1);
    let next = 2;
    await Promise.all(
      Array.from({ length: crawlDefaults.concurrency }, async () => {
        while (next <= requests) await get(next++);
      }),
    );
    return (performance.now() - started) / 1000;
  } finally {
    await pool.close();
  }
}

interface SizeResult {
  comments: number;
  /** The same requests, answers only read (bareRequests). */
  bare: Spread;
  /** The same crawl in this process (the shared client, digests only): the check without Node's start and imports. */
  crawl: Spread;
  topLevel: number;
  pages: number;
  requests: number;
  floor: number;
  ideal: number;
  time: Spread;
  rss: Spread;
}

async function measure(topLevel: number, work: string): Promise<SizeResult> {
  const blog = generateBlog({ ...issue17Blog, topLevel });
  const comments = topLevel + blog.replies;
  const data = join(work, `comments-${topLevel}.json`);
  writeFileSync(data, JSON.stringify(blog.comments));
  log(`${formatNumber(comments)} comments: starting the mock…`);
  const mock = await startMockProcess(["--token", TOKEN, "--data", data, "--latency", String(LATENCY_MS)]);
  try {
    const env = { COMMENTS_DOMAIN: issue17Blog.domain, COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: TOKEN };
    const credentials = credentialsFromEnv(env);
    // Issue 17's floor counts the fewest requests the service allows (its largest page, 100) and
    // leaves page 1's own round trip out; the ideal crawl is page 1, then the rest in waves.
    const requests = Math.ceil(topLevel / PREFERRED_PER_PAGE);
    const crawlState = () =>
      crawlComments(
        credentials,
        crawlDefaults,
        quiet,
        () => new FreshnessStateCollector({ domain: credentials.domain, crawledAt: new Date().toISOString() }),
        { transport: undiciTransport },
      );
    // The deployed state: what a build of this blog publishes, from one crawl here.
    const statePath = join(work, `state-${topLevel}.json`);
    const found = await deployedState(env, statePath);
    if (found.comments !== comments)
      throw new Error(`the crawl found ${found.comments} comments, the blog has ${comments}`);
    // Interleaved, so that the machine's load hits both alike.
    const runs: CheckRun[] = [];
    const crawls: number[] = [];
    const bare: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      bare.push(await bareRequests(mock.url, requests));
      crawls.push((await crawlState()).summary.seconds);
      runs.push(await runCheck(env, statePath, work));
      log(
        `  run ${run}: check ${runs.at(-1)!.seconds.toFixed(2)} s, ${runs.at(-1)!.rssMiB.toFixed(0)} MiB; crawl in this process ${crawls.at(-1)!.toFixed(2)} s; bare requests ${bare.at(-1)!.toFixed(2)} s`,
      );
    }
    const { concurrency } = crawlDefaults;
    return {
      comments,
      crawl: spread(crawls),
      bare: spread(bare),
      topLevel,
      pages: found.pages,
      requests,
      floor: (requests * LATENCY_MS) / concurrency / 1000,
      ideal: (LATENCY_MS * (1 + Math.ceil((requests - 1) / concurrency))) / 1000,
      time: spread(runs.map((run) => run.seconds)),
      rss: spread(runs.map((run) => run.rssMiB)),
    };
  } finally {
    await mock.close();
  }
}

/** The deployed state a build of the mock's comments publishes, from one crawl, as a file. */
export async function deployedState(
  env: Record<string, string>,
  statePath: string,
): Promise<{ comments: number; pages: number }> {
  const credentials = credentialsFromEnv(env);
  const { result: state } = await crawlComments(
    credentials,
    crawlDefaults,
    quiet,
    () => new FreshnessStateCollector({ domain: credentials.domain, crawledAt: new Date().toISOString() }),
    { transport: undiciTransport },
  );
  writeFileSync(statePath, JSON.stringify(state));
  return { comments: state.comments, pages: Object.keys(state.pages).length };
}

/** One check (the packaged bin, its own process) against an already running mock whose comments did not change. */
export async function measureCheck(mock: {
  url: string;
  token: string;
  domain: string;
}): Promise<{ seconds: number; peakMiB: number }> {
  const work = mkdtempSync(join(tmpdir(), "ac-bench-check-"));
  try {
    const env = { COMMENTS_DOMAIN: mock.domain, COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: mock.token };
    const statePath = join(work, "state.json");
    await deployedState(env, statePath);
    const run = await runCheck(env, statePath, work);
    return { seconds: run.seconds, peakMiB: run.rssMiB };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) await standalone();

async function standalone(): Promise<void> {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`npm run build\` first.`);
  const work = mkdtempSync(join(tmpdir(), "ac-bench-check-"));
  const loadBefore = loadavg()[0]!.toFixed(1);
  try {
    const results: SizeResult[] = [];
    for (const topLevel of SIZES) results.push(await measure(topLevel, work));
    const rows = results.map((r) => [
      `${formatNumber(r.comments)} (${formatNumber(r.topLevel)} top-level, ${formatNumber(r.pages)} pages)`,
      formatNumber(r.requests),
      `${r.floor.toFixed(2)} s`,
      `${r.ideal.toFixed(2)} s`,
      `${r.bare.median.toFixed(2)} s (${formatRange(r.bare, 2)})`,
      `${r.crawl.median.toFixed(2)} s (${formatRange(r.crawl, 2)})`,
      `${r.time.median.toFixed(2)} s (${formatRange(r.time, 2)})`,
      `${(r.time.median / r.floor).toFixed(2)}×`,
      `${r.rss.median.toFixed(0)} MiB (${formatRange(r.rss, 0)})`,
    ]);
    process.stdout.write(`${machineLine()}; load average ${loadBefore} before, ${loadavg()[0]!.toFixed(1)} after\n`);
    process.stdout.write(
      `astro-comments check, deployed state unchanged: ${RUNS} runs per size, mock latency ${LATENCY_MS} ms, concurrency ${crawlDefaults.concurrency}, per_page ${PREFERRED_PER_PAGE}. Check: wall time from spawning the bin to its exit (Node's start included), and its process's peak RSS. Bare requests: the same requests over as many connections, answers only read (what the mock and the machine allow at the time). Crawl in-process: the check's crawl and digests inside this script. All three interleaved.\n\n`,
    );
    process.stdout.write(
      `${markdownTable(["comments", "requests", "floor F", "ideal crawl", "bare requests", "crawl in-process", "check (median, range)", "check ÷ F", "peak RSS (median, range)"], ["left", "right", "right", "right", "right", "right", "right", "right", "right"], rows)}\n\n`,
    );
    const worst = results.reduce((a, b) => (b.time.median / b.floor > a.time.median / a.floor ? b : a));
    const heaviest = Math.max(...results.map((r) => r.rss.max));
    process.stdout.write(
      `Targets: check within ${TARGET.ofFloor}× F (worst ${(worst.time.median / worst.floor).toFixed(2)}× at ${formatNumber(worst.comments)} comments); peak RSS under ${TARGET.rssMiB} MiB (highest run ${heaviest.toFixed(0)} MiB).\n`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// npm run bench: the integration's crawl and build cost on a large dataset, every figure measured
// in this run. The mock runs in its own process with 50 ms added to each request.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { request } from "undici";
import { generateDataset } from "../mock-server/src/index.ts";
import { crawlAllPages } from "../packages/astro-comments/src/api/crawl.ts";
import { createCommentsClient } from "../packages/astro-comments/src/api/http-client.ts";
import { pathKey } from "../packages/astro-comments/src/render/path-key.ts";
import { startMockProcess } from "./mock-process.ts";

const LATENCY_MS = 50;
const PER_PAGE = 50;
const dataset = { seed: 1, size: 22_000, paths: 2_000, domains: [["example.com", 1]] as const };
const root = fileURLToPath(new URL("..", import.meta.url));
const TOKEN = "bench-token";


async function crawlOurs(url: string, concurrency: number) {
  const client = createCommentsClient({ endpoint: new URL("/api/comments", url), token: TOKEN, domain: "example.com", timeoutMs: 30_000, connections: concurrency, maxResponseBytes: 50_000_000 });
  const started = performance.now();
  const result = await crawlAllPages({ fetchPage: client.fetchPage, endpoint: url, perPage: PER_PAGE, concurrency });
  const seconds = (performance.now() - started) / 1000;
  const requests = client.requests;
  await client.close();
  return { seconds, requests, threads: result.threads.length, replies: result.threads.reduce((n, t) => n + t.children.length, 0), bytes: client.bytes };
}

/** One page after another, as the hosted service's official plugin fetches (no validation, no retries). */
async function crawlSequential(url: string) {
  const started = performance.now();
  let page = 1;
  let lastPage = 1;
  let requests = 0;
  let threads = 0;
  do {
    const response = await request(`${url}/api/comments?domain=example.com&per_page=${PER_PAGE}&page=${page}`, { headers: { authorization: `Bearer ${TOKEN}`, accept: "application/json" } });
    const body = (await response.body.json()) as { data: unknown[]; meta: { last_page: number } };
    requests++;
    threads += body.data.length;
    lastPage = body.meta.last_page;
    page++;
  } while (page <= lastPage);
  return { seconds: (performance.now() - started) / 1000, requests, threads };
}

function measureBuild(withComments: boolean, env: Record<string, string>): Promise<{ seconds: number; peakMiB: number; log: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("node", ["bench/measure-build.ts", join(root, "bench/site")], {
      cwd: root,
      env: { ...process.env, ...env, BENCH_COMMENTS: withComments ? "1" : "0", ASTRO_TELEMETRY_DISABLED: "1", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
    child.once("exit", (code) => {
      const last = out.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !last.startsWith("{")) return reject(new Error(`build failed (${code}):\n${out.slice(-3000)}`));
      const { ms, maxRssKiB } = JSON.parse(last) as { ms: number; maxRssKiB: number };
      resolve({ seconds: ms / 1000, peakMiB: maxRssKiB / 1024, log: out });
    });
  });
}

const comments = generateDataset(dataset);
const pages = [...new Set(comments.filter((c) => c.domain === "example.com").map((c) => pathKey(c.path)))].slice(0, 2_000);
const pathsFile = join(mkdtempSync(join(tmpdir(), "ac-bench-")), "paths.json");
writeFileSync(pathsFile, JSON.stringify(pages));

const { url, child } = await startMockProcess(["--token", TOKEN, "--seed", "1", "--size", String(dataset.size), "--paths", String(dataset.paths), "--domains", "example.com", "--latency", String(LATENCY_MS)]);
try {
  process.stderr.write("crawling (ours, concurrency 6 and 16; then sequential)...\n");
  const ours6 = await crawlOurs(url, 6);
  const ours16 = await crawlOurs(url, 16);
  const sequential = await crawlSequential(url);
  const f = (n: number, digits = 2) => n.toFixed(digits);
  const ideal = (requests: number, concurrency: number) => (Math.ceil(requests / concurrency) * LATENCY_MS) / 1000;

  process.stderr.write(`building the ${pages.length}-page site without, then with comments...\n`);
  const env = { BENCH_PATHS_FILE: pathsFile, COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: url, COMMENTS_API_TOKEN: TOKEN, BENCH_CONCURRENCY: "16" };
  // Builds are noisy on a shared 2-core machine: three of each, interleaved, medians reported.
  const RUNS = 3;
  const withoutRuns: Awaited<ReturnType<typeof measureBuild>>[] = [];
  const coldRuns: Awaited<ReturnType<typeof measureBuild>>[] = [];
  const warmRuns: Awaited<ReturnType<typeof measureBuild>>[] = [];
  const renderCache = join(root, "bench/site/.astro/integrations/astro-comments/render-cache.json");
  for (let run = 0; run < RUNS; run++) {
    withoutRuns.push(await measureBuild(false, env));
    rmSync(renderCache, { force: true });
    coldRuns.push(await measureBuild(true, env));
    warmRuns.push(await measureBuild(true, env));
  }
  const median = (runs: typeof coldRuns) => {
    const bySeconds = [...runs].sort((a, b) => a.seconds - b.seconds);
    const byPeak = [...runs].sort((a, b) => a.peakMiB - b.peakMiB);
    return { seconds: bySeconds[Math.floor(runs.length / 2)]!.seconds, peakMiB: byPeak[Math.floor(runs.length / 2)]!.peakMiB, log: runs[0]!.log, spread: `${f(bySeconds[0]!.seconds)}–${f(bySeconds.at(-1)!.seconds)} s` };
  };
  const without = median(withoutRuns);
  const withC = median(coldRuns);
  const warm = median(warmRuns);
  const fetchedMiB = Number(/requests, ([\d.]+) MiB/.exec(withC.log)?.[1] ?? NaN);
  const crawlInBuild = /fetched [\d,]+ comments .* in ([\d.]+) s/.exec(withC.log)?.[1];

  const row = (cells: string[]) => `| ${cells.join(" | ")} |`;
  console.log(`\nastro-comments benchmark — ${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`);
  console.log(`dataset: ${ours6.threads.toLocaleString("en-US")} top-level comments + ${ours6.replies.toLocaleString("en-US")} replies on example.com over ${pages.length.toLocaleString("en-US")} paths; ${LATENCY_MS} ms added per request; per_page ${PER_PAGE}\n`);
  console.log(row(["crawl", "requests", "seconds", "vs sequential", "vs ideal bound"]));
  console.log(row(["---", "---:", "---:", "---:", "---:"]));
  console.log(row(["sequential, page by page (official plugin's way)", String(sequential.requests), f(sequential.seconds), "1.0×", "—"]));
  for (const [name, run, c] of [["astro-comments, concurrency 6 (default)", ours6, 6], ["astro-comments, concurrency 16", ours16, 16]] as const) {
    console.log(row([name, String(run.requests), f(run.seconds), `${f(sequential.seconds / run.seconds, 1)}× faster`, `${f(run.seconds / ideal(run.requests, c))}× (ideal ${f(ideal(run.requests, c))} s)`]));
  }
  console.log(`\n${row([`build of the ${pages.length}-page site (median of ${RUNS})`, "seconds", "range", "peak RSS MiB"])}`);
  console.log(row(["---", "---:", "---:", "---:"]));
  console.log(row(["without comments", f(without.seconds), without.spread, f(without.peakMiB, 0)]));
  console.log(row([`with comments, cold (fetch + render ${crawlInBuild ?? "?"} s, ${f(fetchedMiB, 1)} MiB of JSON)`, f(withC.seconds), withC.spread, f(withC.peakMiB, 0)]));
  const warmFetch = /fetched [\d,]+ comments .* in ([\d.]+) s/.exec(warm.log)?.[1];
  console.log(row([`with comments, warm render cache (fetch + render ${warmFetch ?? "?"} s)`, f(warm.seconds), warm.spread, f(warm.peakMiB, 0)]));
  const buildOverhead = withC.seconds / without.seconds - 1;
  const memoryOverhead = withC.peakMiB - without.peakMiB;
  console.log(`\ntargets:`);
  console.log(`- crawl ≥ 8× faster than sequential: ${f(sequential.seconds / ours16.seconds, 1)}× at concurrency 16, ${f(sequential.seconds / ours6.seconds, 1)}× at the default 6`);
  console.log(`- crawl within 1.3× of the ideal bound: ${f(ours16.seconds / ideal(ours16.requests, 16))}× at 16, ${f(ours6.seconds / ideal(ours6.requests, 6))}× at 6`);
  console.log(`- comments add ≤ 20% to the build: +${f(buildOverhead * 100, 1)}% cold, +${f((warm.seconds / without.seconds - 1) * 100, 1)}% warm; the network alone (${ours16.requests} requests × ${LATENCY_MS} ms ÷ 16) is ${f(ideal(ours16.requests, 16))} s = ${f((ideal(ours16.requests, 16) / without.seconds) * 100, 0)}% of the comment-free build`);
  console.log(`- peak memory ≤ comment-free + 2× raw JSON (${f(fetchedMiB * 2, 0)} MiB): +${f(memoryOverhead, 0)} MiB (${f(memoryOverhead / fetchedMiB)}× the raw JSON)`);
} finally {
  child.kill("SIGTERM");
}

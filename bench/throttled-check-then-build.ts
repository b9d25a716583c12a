// `npm run bench:throttled`: issue 34's rate-limit target. Against the mock throttled like Laravel's
// default (60 requests a minute per token), a blog that needs 70 requests per crawl: the check, then
// the build, as a host's ignore step and build run them. Once with the build finding the check's
// crawl (the check leaves it in the site's cache folder), once as before (the check's crawl left in
// a scratch folder the build does not look in), each against a fresh mock, so each starts with a
// full window. Prints the wall time of the pair and the rate-limit pauses each part waited out.
// BENCH_ROUNDS sets the rounds (default 1: a round takes about four minutes).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { clearCaches, runBuild, siteRoot, type BuildRun } from "./builds.ts";
import { startMockProcess } from "./child-processes.ts";
import { generateBlog, issue17Blog } from "./dataset.ts";
import { machineLine, markdownTable } from "./report.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "packages/astro-comments/dist/cli/astro-comments.js");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const TOKEN = "bench-token";
const LATENCY_MS = 50;
const LIMIT = { requests: 60, windowMs: 60_000 };
// 7,000 top-level comments at 100 a page: 70 requests, more than one window allows.
const TOP_LEVEL = 7_000;

const log = (message: string) => process.stderr.write(`${message}\n`);

interface CheckResult {
  seconds: number;
  pauses: number;
}

/** The check, verbose, so its rate-limit pauses are counted from its progress lines. */
function runCheck(env: Record<string, string>, cacheDir: string): Promise<CheckResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const args = [bin, "check", "--verbose", "--cache-dir", cacheDir, "--state", join(cacheDir, "no-state.json")];
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env, COMMENTS_STATE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", () => {
      // It answers at once (no deployed state) and finishes its crawl before it exits.
      if (!existsSync(join(cacheDir, "astro-comments/check-crawl.jsonl")))
        return reject(new Error(`the check left no crawl:\n${output}`));
      resolve({
        seconds: (performance.now() - started) / 1000,
        pauses: output.split("\n").filter((line) => line.includes("rate limit") && line.includes("waiting")).length,
      });
    });
  });
}

const pausesOf = (run: BuildRun, logText: string) =>
  run.loader?.reusedCheck ? 0 : Number(/(\d+) rate-limit pauses?/.exec(logText)?.[1] ?? 0);

const work = mkdtempSync(join(tmpdir(), "ac-bench-throttled-"));
const rows: string[][] = [];
try {
  const blog = generateBlog({ ...issue17Blog, topLevel: TOP_LEVEL });
  const data = join(work, "comments.json");
  writeFileSync(data, JSON.stringify(blog.comments));
  writeFileSync(join(root, "bench/site/shared/posts.json"), JSON.stringify(blog.posts));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const reuse of [true, false]) {
      const mock = await startMockProcess([
        "--token",
        TOKEN,
        "--data",
        data,
        "--latency",
        String(LATENCY_MS),
        "--rate-limit",
        String(LIMIT.requests),
        "--rate-window",
        String(LIMIT.windowMs),
      ]);
      try {
        const env = { COMMENTS_DOMAIN: issue17Blog.domain, COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: TOKEN };
        clearCaches("comments");
        const cacheDir = reuse ? join(siteRoot("comments"), "node_modules/.astro") : join(work, "scratch");
        const started = performance.now();
        const check = await runCheck(env, cacheDir);
        const logFile = join(work, `build-${round}-${reuse}.log`);
        const build = await runBuild("comments", env, logFile);
        const total = (performance.now() - started) / 1000;
        const buildPauses = pausesOf(build, readFileSync(logFile, "utf8"));
        const label = reuse ? "the build uses the check's crawl" : "the build crawls again (as before)";
        log(
          `[round ${round}/${ROUNDS}] ${label}: check ${check.seconds.toFixed(1)} s (${check.pauses} pauses), build ${build.seconds.toFixed(1)} s (${buildPauses} pauses), together ${total.toFixed(1)} s`,
        );
        rows.push([
          label,
          `${check.seconds.toFixed(1)} s`,
          String(check.pauses),
          `${build.seconds.toFixed(1)} s`,
          build.loader?.reusedCheck ? "0" : String(build.loader?.requests ?? "?"),
          String(buildPauses),
          `${total.toFixed(1)} s`,
          String(check.pauses + buildPauses),
        ]);
      } finally {
        await mock.close();
      }
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
  clearCaches("comments");
}

process.stdout.write(
  `${machineLine()}\nThe mock throttled to ${LIMIT.requests} requests per ${LIMIT.windowMs / 1000} s per token, ${LATENCY_MS} ms added to every answer; ${TOP_LEVEL.toLocaleString("en-US")} top-level comments on issue 17's 2,000-page blog (${Math.ceil(TOP_LEVEL / 100)} requests of 100 per crawl); the check, then the comments site's build, a fresh mock for each pair.\n\n`,
);
process.stdout.write(
  `${markdownTable(
    [
      "check, then build",
      "check",
      "check's pauses",
      "build",
      "build's requests",
      "build's pauses",
      "together",
      "windows waited out",
    ],
    ["left", "right", "right", "right", "right", "right", "right", "right"],
    rows,
  )}\n`,
);

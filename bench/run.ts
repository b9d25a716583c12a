// npm run bench: what comments cost a blog's build, measured as issue 17 asks: a 2,000-page blog
// whose pages come from a `posts` collection (a JSON file), 40,000 top-level comments and 13,334
// replies, 50 ms added to every answer, the integration's default options and Astro's defaults.
// Every build with comments is compared with the comment-free blog in the same state (cold with
// cold, warm with warm), and the overhead is given in seconds, in % and in F, the network floor.
// Each round runs every measurement once (crawls, cold builds, warm builds, the incremental build,
// the sanitizer), so drift on this shared machine hits all rows alike; the table gives the median
// and range over the rounds, and each overhead is the median of the per-round differences.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { request } from "undici";
import { DEFAULT_MAX_PER_PAGE } from "../mock-server/src/index.ts";
import { crawlDefaults } from "../packages/astro-comments/src/api/crawl-comments.ts";
import { credentialsFromEnv } from "../packages/astro-comments/src/api/credentials.ts";
import { clearCaches, integrationFingerprint, runBuild, siteRoot, type BuildRun, type Variant } from "./builds.ts";
import { startMockProcess, type MockProcess } from "./child-processes.ts";
import { crawlIdealSeconds, crawlOurs, crawlSequential, networkFloor, type CrawlRun } from "./crawls.ts";
import { generateBlog, issue17Blog, type Blog } from "./dataset.ts";
import { deployedState, measureCheck, runCheck, type CheckRun } from "./freshness-check.ts";
import { writeSections } from "./output-floor.ts";
import { formatNumber, formatPercent, formatRange, machineLine, markdownTable, spread, type Spread } from "./report.ts";
import { measureSanitizerRates, sanitizerBodies, sanitizers } from "./sanitizer.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const resultsDir = join(root, "bench-results");
const benchStarted = performance.now();
const startedAt = new Date();

// The issue's setup: these stay fixed. BENCH_ROUNDS exists to try the script out quickly; a
// figure from fewer than 3 rounds has no meaningful median.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LATENCY_MS = 50;
const TOKEN = "bench-token";
const shape = issue17Blog;
const SANITIZER_ROUNDS_PER_ROUND = 3;
const SANITIZER_SAMPLE_MS = 150;

// Issue 17's targets, in F over the comment-free build in the same state, and in MiB of peak RSS.
// Issue 40's for the plain builds: cold no slower than on 2026-11-28 (+1.46 F), warm ≤ +1.2 F;
// peak RSS cold ≤ +125 MiB, warm ≤ +100 MiB. Issue 17's sanitizer speed-up stays.
const TARGETS = { cold: { f: 1.46, rssMiB: 125 }, warm: { f: 1.2, rssMiB: 100 }, sanitizerSpeedUp: 5 } as const;
// Issue 40's: a build right after a check that found one new comment, over the comment-free build
// in the same state, with 0 requests.
const AFTER_CHECK_TARGET_F = { cold: 0.8, warm: 0.6 } as const;

type State = "cold" | "warm";
/** The variants compared like with like, rotated from round to round so none always builds first. */
const compared = ["baseline", "comments", "floor", "output"] as const satisfies readonly Variant[];
type Compared = (typeof compared)[number];
const runKey = (variant: Compared, state: State) => `${variant} ${state}` as const;
type RunKey = ReturnType<typeof runKey>;

const log = (message: string) => process.stderr.write(`${message}\n`);

// ---------------------------------------------------------------------------------------------
// Issue 21's freshness check, one run per round beside the builds (bench/freshness-check.ts).

// ---------------------------------------------------------------------------------------------
// Setup: the blog's posts (bench/site/shared/posts.json, git-ignored), the comments file the mock
// serves, and the mock.

log(
  `astro-comments benchmark: ${ROUNDS} round${ROUNDS === 1 ? "" : "s"}; the table comes at the end (about ${Math.ceil(ROUNDS * 2.6 + 1)} minutes)`,
);
if (ROUNDS < 3) log(`BENCH_ROUNDS=${ROUNDS}: fewer than 3 rounds, so the medians below are not meaningful`);

const blog = generateBlog(shape);
writeFileSync(join(root, "bench/site/shared/posts.json"), JSON.stringify(blog.posts));
const workDir = mkdtempSync(join(tmpdir(), "ac-bench-"));
const commentsFile = join(workDir, "comments.json");
writeFileSync(commentsFile, JSON.stringify(blog.comments));
mkdirSync(join(resultsDir, "logs"), { recursive: true });

/** A reply to the first comment on the post at `path`. Ids follow the data file's order, from 1. */
function replyTarget({ comments }: Blog, path: string): { path: string; parentId: number } {
  let id = 1;
  for (const thread of comments.comments) {
    if (thread.path === path) return { path, parentId: id };
    id += 1 + (thread.children?.length ?? 0);
  }
  throw new Error(`the bench blog has no comment on ${path} to reply to; change the dataset's seed`);
}
/** The incremental build's new comment: on the middle post. */
const target = replyTarget(blog, blog.posts[blog.posts.length >> 1]!.path);
/** The comment approved before each check: on the post a quarter in, another page than the incremental row's. */
const approved = replyTarget(blog, blog.posts[blog.posts.length >> 2]!.path);

// A reply does not count toward per_page, so every round crawls the same 400 pages.
async function addReply(url: string, to: typeof target, name: string, content: string): Promise<void> {
  const response = await request(`${url}/__admin/comments`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ replyTo: to.parentId, path: to.path, name, content }),
  });
  const text = await response.body.text();
  if (response.statusCode !== 201)
    throw new Error(`adding a comment on ${to.path} failed (${response.statusCode}): ${text.slice(0, 300)}`);
}

const crawlRuns = { ours: [] as CrawlRun[], sequential: [] as CrawlRun[] };
const buildRuns = new Map<RunKey, BuildRun[]>(
  compared.flatMap((variant) =>
    (["cold", "warm"] as const).map((state) => [runKey(variant, state), []] as [RunKey, BuildRun[]]),
  ),
);
const incrementalRuns: BuildRun[] = [];
const sanitizerRates = sanitizers.map((): number[] => []);
const checkRuns: Array<Awaited<ReturnType<typeof measureCheck>>> = [];
// Issue 34: the check in the comments site's folder, then its build, which uses the check's crawl.
const afterCheck = { cold: [] as BuildRun[], warm: [] as BuildRun[], checks: [] as CheckRun[] };
// The 1-minute load average before each build, and the builds before which the integration had changed.
const loads: number[] = [];
const rebuilds: string[] = [];
let fingerprint: string | undefined;

async function build(variant: Variant, env: Record<string, string>, label: string, tag: string): Promise<BuildRun> {
  const current = integrationFingerprint();
  if (fingerprint !== undefined && current !== fingerprint) {
    rebuilds.push(`${tag}, before ${label}`);
    log(`${tag} packages/astro-comments changed since the last build: the rows mix two versions of the integration`);
  }
  fingerprint = current;
  loads.push(loadavg()[0]!);
  const run = await runBuild(
    variant,
    env,
    join(resultsDir, "logs", `${tag.replace(/\W+/g, "")}-${label.replace(/\W+/g, "-")}.log`),
  );
  const loader = run.loader ? `, by the loader ${run.loader.rendered}` : "";
  log(
    `${tag} ${label}: ${run.seconds.toFixed(2)} s, ${run.peakMiB.toFixed(0)} MiB, pages rendered by Astro ${run.pagesRendered}, restored ${run.pagesRestored}${loader}`,
  );
  return run;
}

let mock: MockProcess | undefined;
try {
  mock = await startMockProcess([
    "--token",
    TOKEN,
    "--domain",
    shape.domain,
    "--data",
    commentsFile,
    "--latency",
    String(LATENCY_MS),
  ]);
  const url = mock.url;
  const sectionsDir = join(workDir, "sections");
  const siteEnv = {
    COMMENTS_DOMAIN: shape.domain,
    COMMENTS_API_URL: url,
    COMMENTS_API_TOKEN: TOKEN,
    BENCH_SECTIONS_DIR: sectionsDir,
  };
  const credentials = credentialsFromEnv(siteEnv);
  // The output floor's pages carry the sections a comments build writes: one build to cut them from.
  clearCaches("comments");
  await build(
    "comments",
    siteEnv,
    "comments cold (its sections go into the output floor's pages; not in the table)",
    "[setup]",
  );
  const sectionBytes = writeSections(
    join(siteRoot("comments"), "dist"),
    sectionsDir,
    blog.posts.map((post) => post.path),
  );
  log(`[setup] the output floor's pages carry ${(sectionBytes / 2 ** 20).toFixed(1)} MiB of comments sections`);
  for (let round = 1; round <= ROUNDS; round++) {
    const tag = `[round ${round}/${ROUNDS}]`;
    const ours = await crawlOurs(credentials, log);
    crawlRuns.ours.push(ours);
    const sequential = await crawlSequential(credentials, DEFAULT_MAX_PER_PAGE);
    crawlRuns.sequential.push(sequential);
    log(
      `${tag} crawl: ours ${ours.seconds.toFixed(2)} s, one after another ${sequential.seconds.toFixed(2)} s (${ours.requests} requests)`,
    );
    const order = compared.map((_, i) => compared[(i + round - 1) % compared.length]!);
    for (const state of ["cold", "warm"] as const) {
      for (const variant of order) {
        if (state === "cold") clearCaches(variant);
        buildRuns.get(runKey(variant, state))!.push(await build(variant, siteEnv, `${variant} ${state}`, tag));
      }
    }
    // The real schedule (issue 40): the deployed build's state, one comment approved, then the
    // check as a host's ignore step runs it, in the site's folder, which finds it and exits 1,
    // then the build: cold (the caches deleted before the check) and warm. A check that finds
    // nothing changed is followed by no build at all. The builds above left no crawl of a check behind.
    const statePath = join(workDir, "state.json");
    await deployedState(siteEnv, statePath);
    for (const state of ["cold", "warm"] as const) {
      await addReply(url, approved, "Scheduled reader", `Approved before the check, round ${round}, ${state}.`);
      if (state === "cold") clearCaches("comments");
      const check = await runCheck(siteEnv, statePath, join(siteRoot("comments"), "node_modules/.astro"), "changed");
      afterCheck.checks.push(check);
      const run = await build(
        "comments",
        siteEnv,
        `comments ${state}, right after a check (${check.seconds.toFixed(2)} s)`,
        tag,
      );
      if (!run.loader?.reusedCheck) throw new Error(`${tag} the build after the check crawled again: see its log`);
      afterCheck[state].push(run);
    }
    // The incremental variant keeps its caches from round to round: the first round fills them.
    if (round === 1) {
      clearCaches("incremental");
      await build("incremental", siteEnv, "incremental cold (fills the page cache; not in the table)", tag);
    }
    await addReply(url, target, "Bench reader", `One more comment, round ${round}.`);
    incrementalRuns.push(await build("incremental", siteEnv, "incremental one new comment", tag));
    measureSanitizerRates(sanitizerBodies(), {
      rounds: SANITIZER_ROUNDS_PER_ROUND,
      sampleMs: SANITIZER_SAMPLE_MS,
    }).forEach((rates, s) => sanitizerRates[s]!.push(...rates));
    log(
      `${tag} sanitizer: ${sanitizers.map(([name], s) => `${name} ${formatNumber(sanitizerRates[s]!.at(-1)!)} bodies/s`).join(", ")}`,
    );
    const check = await measureCheck({ url, token: TOKEN, domain: shape.domain });
    checkRuns.push(check);
    log(`${tag} freshness check: ${check.seconds.toFixed(2)} s, ${check.peakMiB.toFixed(0)} MiB`);
  }
} finally {
  await mock?.close();
  rmSync(workDir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------
// The table. Overheads are per round (a build minus the baseline build of the same round and
// state), then the median and range of those.

const runs = (key: RunKey) => buildRuns.get(key)!;
const of = (values: readonly number[]) => spread(values);

const firstCrawl = crawlRuns.ours[0]!;
const F = networkFloor(firstCrawl.threads, DEFAULT_MAX_PER_PAGE, LATENCY_MS);
const signed = (value: number, decimals: number, unit: string) =>
  Number.isFinite(value) ? `${value >= 0 ? "+" : "−"}${formatNumber(Math.abs(value), decimals)}${unit}` : "?";
const signedRange = (value: Spread, decimals: number, unit: string) =>
  `${signed(value.min, decimals, "")} to ${signed(value.max, decimals, unit)}`;
const seconds = (value: Spread) => `${value.median.toFixed(2)} s`;
const secondsRange = (value: Spread) => `${formatRange(value, 2)} s`;
const verdict = (met: boolean) => (met ? "met" : "NOT met");

interface Overhead {
  time: Spread;
  /** CPU time of the build process over the reference's. */
  cpu: Spread;
  percent: Spread;
  rss: Spread;
}
/** `own` against `reference` (the comment-free build of the same state, or the floor), round by round. */
function overhead(own: readonly BuildRun[], reference: readonly BuildRun[]): Overhead {
  const difference = (pick: (run: BuildRun) => number) => of(own.map((run, i) => pick(run) - pick(reference[i]!)));
  return {
    time: difference((r) => r.seconds),
    cpu: difference((r) => r.cpuSeconds),
    percent: of(own.map((run, i) => run.seconds / reference[i]!.seconds - 1)),
    rss: difference((r) => r.peakMiB),
  };
}
const baselineRuns = (state: State) => runs(runKey("baseline", state));

const header = [
  "measurement",
  "median",
  "range",
  "over its baseline (range)",
  "%",
  "in F",
  "peak RSS MiB (range)",
  "RSS over baseline (range)",
  "target",
];
const rows: string[][] = [];
const targetLines: string[] = [];
const describe: Record<Compared, string> = {
  baseline: "without comments (baseline)",
  comments: "with comments",
  floor: "floor: crawl only, nothing kept or rendered",
  output: "output floor: the same comments sections in the comment-free pages, read from files, nothing fetched",
};

function buildRow(label: string, own: BuildRun[], over: Overhead | undefined, target: string): string[] {
  const time = of(own.map((r) => r.seconds));
  const rss = of(own.map((r) => r.peakMiB));
  const rssCell = `${formatNumber(rss.median)} (${formatRange(rss)})`;
  if (over === undefined) return [label, seconds(time), secondsRange(time), "—", "—", "—", rssCell, "—", target];
  return [
    label,
    seconds(time),
    secondsRange(time),
    `${signed(over.time.median, 2, " s")} (${signedRange(over.time, 2, " s")})`,
    formatPercent(over.percent.median),
    `${signed(over.time.median / F.seconds, 2, " F")}`,
    rssCell,
    `${signed(over.rss.median, 0, " MiB")} (${signedRange(over.rss, 0, " MiB")})`,
    target,
  ];
}

for (const state of ["cold", "warm"] as const) {
  const stateLabel =
    state === "cold" ? "cold (Astro's caches deleted)" : "warm (caches kept, nothing changed, every page rendered)";
  for (const variant of compared) {
    const key = runKey(variant, state);
    if (variant === "baseline") {
      rows.push(buildRow(`build ${describe[variant]}, ${stateLabel}`, runs(key), undefined, ""));
      continue;
    }
    const over = overhead(runs(key), baselineRuns(state));
    let target = "none: what cannot be removed";
    if (variant === "comments") {
      const goal = TARGETS[state];
      const timeMet = over.time.median <= goal.f * F.seconds;
      const rssMet = over.rss.median <= goal.rssMiB;
      target = `≤ +${goal.f} F: ${verdict(timeMet)}; ≤ +${goal.rssMiB} MiB: ${verdict(rssMet)}`;
    }
    rows.push(buildRow(`build ${describe[variant]}, ${state}`, runs(key), over, target));
  }
}
rows.push(
  buildRow(
    `build with comments and incremental builds, 1 new comment (vs the warm baseline)`,
    incrementalRuns,
    overhead(incrementalRuns, baselineRuns("warm")),
    "none (Astro restores unchanged pages)",
  ),
);
// Issue 40's table: the build a schedule runs (right after a check that exits 1) beside the plain
// builds, each over the comment-free build of its state and round.
const scheduleHeader = [
  "build",
  "over the comment-free build (range)",
  "in F",
  "peak RSS over it (range)",
  "requests",
  "target",
];
const scheduleRows: string[][] = [];
/** A schedule row's three figures: the time over the comment-free build, the same in F, and peak RSS. */
const overCells = (over: Overhead) => [
  `${signed(over.time.median, 2, " s")} (${signedRange(over.time, 2, " s")})`,
  signed(over.time.median / F.seconds, 2, " F"),
  `${signed(over.rss.median, 0, " MiB")} (${signedRange(over.rss, 0, " MiB")})`,
];
function scheduleRow(label: string, own: BuildRun[], state: State, goalF: number, goalRss?: number): void {
  const over = overhead(own, baselineRuns(state));
  const requests = own.map((r) => r.loader?.requests ?? Number.NaN);
  const timeMet = over.time.median <= goalF * F.seconds;
  const rssMet = goalRss === undefined || over.rss.median <= goalRss;
  const goals = [`≤ +${goalF} F`, ...(goalRss === undefined ? [] : [`≤ +${goalRss} MiB`])].join(", ");
  scheduleRows.push([label, ...overCells(over), requests.join(", "), `${goals}: ${verdict(timeMet && rssMet)}`]);
  targetLines.push(
    `- ${label}: ${signed(over.time.median, 2, " s")} = ${signed(over.time.median / F.seconds, 2, " F")} (${goals}), peak RSS ${signed(over.rss.median, 0, " MiB")}, requests ${requests.join(", ")} — ${verdict(timeMet && rssMet)}; CPU time ${signed(over.cpu.median, 2, " s")} (${signedRange(over.cpu, 2, " s")})`,
  );
}
for (const state of ["cold", "warm"] as const) {
  const own = afterCheck[state];
  const requests = own.map((r) => r.loader?.requests ?? Number.NaN);
  const label = `right after a check that found 1 new comment, ${state}`;
  scheduleRow(label, own, state, AFTER_CHECK_TARGET_F[state]);
  const met = overhead(own, baselineRuns(state)).time.median <= AFTER_CHECK_TARGET_F[state] * F.seconds;
  rows.push(
    buildRow(
      `build with comments right after \`astro-comments check\` found 1 new comment and exited 1 (its crawl used; requests during the build: ${requests.join(", ")}), ${state}`,
      own,
      overhead(own, baselineRuns(state)),
      `issue 40: ≤ +${AFTER_CHECK_TARGET_F[state]} F, 0 requests: ${verdict(met && requests.every((r) => r === 0))}`,
    ),
  );
}
for (const state of ["cold", "warm"] as const) {
  const label =
    state === "cold" ? "plain, cold (crawls)" : "plain, warm (crawls; nothing changed since the build before)";
  scheduleRow(label, runs(runKey("comments", state)), state, TARGETS[state].f, TARGETS[state].rssMiB);
}
// The output floor under every target: pages as large as with comments, no comment work at all.
for (const state of ["cold", "warm"] as const) {
  const floor = runs(runKey("output", state));
  scheduleRows.push([
    `output floor, ${state}: the same comments sections in the comment-free pages, nothing fetched`,
    ...overCells(overhead(floor, baselineRuns(state))),
    "",
    "none: what writing these pages costs",
  ]);
  const afterIt = overhead(afterCheck[state], floor);
  targetLines.push(
    `- right after a check, ${state}, over the output floor (what the integration adds beyond writing the pages): ${signed(afterIt.time.median, 2, " s")} = ${signed(afterIt.time.median / F.seconds, 2, " F")}, peak RSS ${signed(afterIt.rss.median, 0, " MiB")}, CPU time ${signed(afterIt.cpu.median, 2, " s")} (${signedRange(afterIt.cpu, 2, " s")})`,
  );
}
{
  const time = of(afterCheck.checks.map((r) => r.seconds));
  const rss = of(afterCheck.checks.map((r) => r.rssMiB));
  rows.push([
    "the check before those builds (leaves its crawl in the site's cache folder)",
    seconds(time),
    secondsRange(time),
    "",
    "",
    `${(time.median / F.seconds).toFixed(2)} F`,
    `${formatNumber(rss.median)} (${formatRange(rss)})`,
    "",
    "",
  ]);
}
const warmBuild = of(runs("comments warm").map((r) => r.seconds));
{
  const time = of(checkRuns.map((r) => r.seconds));
  const rss = of(checkRuns.map((r) => r.peakMiB));
  rows.push([
    "freshness check (npx astro-comments check), nothing changed",
    seconds(time),
    secondsRange(time),
    `${(time.median / warmBuild.median).toFixed(2)}× the warm build with comments`,
    "",
    `${(time.median / F.seconds).toFixed(2)} F`,
    `${formatNumber(rss.median)} (${formatRange(rss)})`,
    "",
    "issue 21: ≤ 1.2 F, < 150 MiB",
  ]);
}

const ours = of(crawlRuns.ours.map((r) => r.seconds));
const sequential = of(crawlRuns.sequential.map((r) => r.seconds));
const ideal = crawlIdealSeconds(firstCrawl.requests, crawlDefaults.concurrency, LATENCY_MS);
rows.push([
  `crawl: astro-comments alone, its defaults (concurrency ${crawlDefaults.concurrency}, per_page ${DEFAULT_MAX_PER_PAGE})`,
  seconds(ours),
  secondsRange(ours),
  `${(ours.median / ideal).toFixed(2)}× its ideal ${ideal.toFixed(2)} s`,
  "",
  `${(ours.median / F.seconds).toFixed(2)} F`,
  "",
  "",
  "",
]);
rows.push([
  `crawl: one request after another, per_page ${DEFAULT_MAX_PER_PAGE}`,
  seconds(sequential),
  secondsRange(sequential),
  `${(sequential.median / ours.median).toFixed(1)}× ours`,
  "",
  `${(sequential.median / F.seconds).toFixed(2)} F`,
  "",
  "",
  "",
]);
rows.push([
  `network floor F`,
  `${F.seconds.toFixed(2)} s`,
  "",
  `${formatNumber(F.requests)} requests × ${LATENCY_MS} ms ÷ ${F.connections} connections`,
  "",
  "1 F",
  "",
  "",
  "",
]);
const crawlBytes = of(crawlRuns.ours.map((r) => r.bytes / 2 ** 20));
rows.push([
  "raw JSON of the crawled comments",
  `${crawlBytes.median.toFixed(1)} MiB`,
  `${formatRange(crawlBytes, 1)} MiB`,
  `${formatNumber(firstCrawl.requests)} responses`,
  "",
  "",
  "",
  "",
  "",
]);

const sanitizerSpreads = sanitizerRates.map((rates) => of(rates));
const sanitizerSpeedUp = sanitizerSpreads[1]!.median / sanitizerSpreads[0]!.median;
sanitizers.forEach(([name], s) => {
  const rate = sanitizerSpreads[s]!;
  rows.push([
    `sanitizer: ${name}`,
    `${formatNumber(rate.median)} bodies/s`,
    formatRange(rate),
    s === 0 ? "1.0×" : `${sanitizerSpeedUp.toFixed(1)}×`,
    "",
    "",
    "",
    "",
    s === 0 ? "" : `≥ ${TARGETS.sanitizerSpeedUp}×: ${verdict(sanitizerSpeedUp >= TARGETS.sanitizerSpeedUp)}`,
  ]);
});
targetLines.push(
  `- sanitizer ≥ ${TARGETS.sanitizerSpeedUp}× sanitize-html: ${sanitizerSpeedUp.toFixed(1)}× — ${verdict(sanitizerSpeedUp >= TARGETS.sanitizerSpeedUp)}`,
);

// Where each variant's time went, medians over the rounds.
function detail(label: string, own: BuildRun[]): string {
  const m = (pick: (run: BuildRun) => number) => of(own.map(pick)).median;
  const parts = [
    `CPU ${m((r) => r.cpuSeconds).toFixed(1)} s`,
    `content sync ${m((r) => r.sync).toFixed(1)} s (done at ${m((r) => r.syncedAt).toFixed(1)} s)`,
    `Vite bundle ${m((r) => r.bundle).toFixed(1)} s`,
    `pages ${m((r) => r.generate).toFixed(1)} s from ${m((r) => r.pagesAt).toFixed(1)} s (${formatNumber(m((r) => r.pagesRendered))} rendered, ${formatNumber(m((r) => r.pagesRestored))} restored)`,
  ];
  if (own.some((r) => r.loader)) {
    parts.push(`crawl ${m((r) => r.loader?.fetchSeconds ?? Number.NaN).toFixed(1)} s`);
    parts.push(
      `pages whose comments the loader rendered: ${own.map((r) => (r.loader ? formatNumber(r.loader.rendered) : "?")).join(", ")}`,
    );
  }
  if (own.some((r) => r.floorCrawlSeconds !== undefined))
    parts.push(`crawl ${m((r) => r.floorCrawlSeconds ?? Number.NaN).toFixed(1)} s`);
  return `- ${label}: ${parts.join("; ")}`;
}
const details = [
  ...(["cold", "warm"] as const).flatMap((state) =>
    compared.map((variant) => detail(`${variant} ${state}`, runs(runKey(variant, state)))),
  ),
  detail("incremental, 1 new comment", incrementalRuns),
  detail("comments cold, right after a check", afterCheck.cold),
  detail("comments warm, right after a check", afterCheck.warm),
];
// What the integration's own work (grouping, sanitizing, storing, rendering) adds over the floor.
for (const state of ["cold", "warm"] as const) {
  const { time, rss } = overhead(runs(runKey("comments", state)), runs(runKey("floor", state)));
  targetLines.push(
    `- with comments over the floor, ${state} (the integration's own work): ${signed(time.median, 2, " s")} = ${signed(time.median / F.seconds, 2, " F")}, peak RSS ${signed(rss.median, 0, " MiB")}`,
  );
}
const warmRendered = runs("comments warm").map((r) => r.loader?.rendered);
targetLines.push(
  `- a warm build sanitizes and highlights nothing (the loader's "N rendered" = 0): ${warmRendered.map((r) => r ?? "?").join(", ")} — ${verdict(warmRendered.every((r) => r === 0))}`,
);

const ordinal = (n: number) => ({ 2: "second", 3: "third", 4: "fourth", 5: "fifth" })[n] ?? `${n}th`;
const minutes = ((performance.now() - benchStarted) / 60_000).toFixed(1);
const load = of(loads);
const report = [
  `# astro-comments benchmark`,
  ``,
  `- machine: ${machineLine(startedAt)}`,
  `- the blog: ${formatNumber(shape.pages)} pages from a \`posts\` collection (Astro's file() loader on a JSON file), the same in every variant; with comments, <Comments path> on every page, the integration's default options, Astro's defaults (bench/site)`,
  `- the comments: ${formatNumber(firstCrawl.threads)} top-level + ${formatNumber(firstCrawl.replies)} replies on ${shape.domain} (bench/dataset.ts, seed ${shape.seed}: a reply on every ${ordinal(shape.replyEvery)} comment, every ${ordinal(shape.richEvery)} body with a link and a code block), served by the mock from a data file with ${LATENCY_MS} ms added to every answer; ${formatNumber(firstCrawl.requests)} requests of ${DEFAULT_MAX_PER_PAGE}`,
  `- F = ${F.seconds.toFixed(2)} s, the network floor: the fewest requests the service allows (⌈${formatNumber(firstCrawl.threads)} ÷ ${DEFAULT_MAX_PER_PAGE}⌉ = ${formatNumber(F.requests)}, counted as issue 17 counts them) × ${LATENCY_MS} ms ÷ ${F.connections} connections`,
  `- ${ROUNDS} round${ROUNDS === 1 ? "" : "s"}, each: the crawls, the cold builds, the warm builds (order rotated each round), then the schedule (the deployed state; 1 reply approved on ${approved.path}; \`astro-comments check\` in the site's folder, which exits 1; the build), cold then warm, 1 new comment and the incremental build, the sanitizer; every build in its own process; cold = the variant's .astro and node_modules (Astro's cacheDir, Vite's cache) deleted, the same for every variant; each overhead is the median (range) of the per-round differences with the comment-free build in the same state and round; the bench took ${minutes} min`,
  `- noise: the 1-minute load average before the builds was ${formatRange(load, 1)} (median ${load.median.toFixed(1)}) on ${availableParallelism()} cores`,
  ...(rebuilds.length > 0
    ? [
        `- **packages/astro-comments changed during the run** (${rebuilds.join("; ")}): rows measured before and after ran different code`,
      ]
    : []),
  `- every build starts without dist/, as in CI; the incremental row adds one reply on ${target.path} before its build in every round (a reply changes no request), so round r's other builds see r − 1 more replies than round 1's`,
  ``,
  markdownTable(header, ["left", "right", "right", "right", "right", "right", "right", "right", "left"], rows),
  ``,
  `The schedule (issue 40): each build over the comment-free build of its state and round, median (range) of the per-round differences, F = ${F.seconds.toFixed(2)} s:`,
  ``,
  markdownTable(scheduleHeader, ["left", "right", "right", "right", "right", "left"], scheduleRows),
  ``,
  `Targets (issues 17 and 40) and the floor, from the medians of the per-round differences:`,
  ...targetLines,
  ``,
  `Where the time went (medians; "at" is seconds since the build started):`,
  ...details,
  ``,
].join("\n");

console.log(`\n${report}`);
writeFileSync(join(resultsDir, "latest.md"), report);
writeFileSync(
  join(resultsDir, "latest.json"),
  JSON.stringify(
    {
      startedAt,
      machine: machineLine(startedAt),
      shape,
      networkFloor: F,
      crawlRuns,
      buildRuns: Object.fromEntries(buildRuns),
      incrementalRuns,
      sanitizerRates,
      checkRuns,
      afterCheck,
    },
    null,
    2,
  ),
);
log(`written to bench-results/latest.md (raw runs in latest.json, build logs in logs/)`);

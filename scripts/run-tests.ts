// The README's test command: checks (type freshness, package build, typecheck, astro check,
// formatting, knip), then every vitest project. Ends with one line "N passed, N failed" (the form
// CI reads) that counts tests only; a failed check is named above it and fails the run all the same.
// Above them, the ten slowest test files, so that the suite's cost stays in sight.
// The package build happens here, not in bootstrap.sh (`npm test` runs it with --no-build), so
// `tsc -b` runs once and a build error is reported as a named check.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { chromiumMissing } from "../packages/astro-comments/test/helpers/chromium.ts";
import type { FileTiming } from "./file-timings-reporter.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const failures: string[] = [];

function check(name: string, command: string, args: string[]): void {
  process.stdout.write(`\n== ${name}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (result.status === 0) return;
  failures.push(name);
  process.stdout.write(`FAILED: ${name}${result.error ? ` (${result.error.message})` : ""}\n`);
}

check("generated API types are fresh", "node", ["schema/scripts/generate-types.ts", "--check"]);
check("build packages (tsc -b schema packages/astro-comments)", "tsc", ["-b", "schema", "packages/astro-comments"]);
check("build the mock server (esbuild, tsc)", "node", ["mock-server/scripts/build.ts"]);
check("typecheck tests, scripts and mock server (tsc, strict)", "tsc", ["-p", "tsconfig.json"]);
check("astro check on examples/site", "astro", ["check", "--root", "examples/site"]);
check("formatting (biome format; npm run format fixes it)", "biome", ["format", "--max-diagnostics=20", "."]);
check("unused files, exports and dependencies (knip)", "knip", ["--no-progress"]);

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults: { name: string; status: string; message: string; assertionResults: { status: string }[] }[];
}

// The run's reports, where the next run overwrites them (the temporary folder would keep one per run).
const reports = join(root, "node_modules/.cache/astro-comments-tests");
mkdirSync(reports, { recursive: true });
const report = join(reports, "vitest.json");
const timings = join(reports, "file-timings.json");
// A run that writes no report must not be read as the previous run's.
for (const file of [report, timings]) rmSync(file, { force: true });
process.stdout.write("\n== vitest\n");
const vitest = spawnSync(
  "vitest",
  [
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
    `--reporter=${join(root, "scripts/file-timings-reporter.ts")}`,
    ...process.argv.slice(2),
  ],
  {
    cwd: root,
    stdio: "inherit",
    env: {
      ...process.env,
      ASTRO_TELEMETRY_DISABLED: "1",
      VITEST_FILE_TIMINGS: timings,
      // The test registry publishes this build rather than run each prepack's build again.
      ...(failures.some((name) => name.startsWith("build ")) ? {} : { ASTRO_COMMENTS_PACKAGES_BUILT: "1" }),
    },
  },
);
let passed = 0;
let failed = 0;
try {
  const summary = JSON.parse(readFileSync(report, "utf8")) as VitestReport;
  passed = summary.numPassedTests;
  failed = summary.numFailedTests;
  // A file that failed outside its tests (an import error, a failing beforeAll) ran none of them:
  // it counts as one failed test, so the line never reads "0 failed" while tests were lost.
  for (const file of summary.testResults) {
    if (file.status !== "failed" || file.assertionResults.some((test) => test.status === "failed")) continue;
    failed++;
    failures.push(
      `vitest: ${relative(root, file.name)} failed outside its tests (${file.message.split("\n")[0] || "see above"})`,
    );
  }
  if (vitest.status !== 0 && failed === 0)
    failures.push(`vitest exited with ${vitest.status ?? vitest.signal} (see its errors above)`);
} catch {
  failures.push("vitest: it wrote no report (see above)");
}

process.stdout.write("\n");
try {
  // Each is the time one file took from start to end; where files run side by side (maxWorkers > 1), they overlap.
  const slowest = (JSON.parse(readFileSync(timings, "utf8")) as FileTiming[])
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, 10);
  process.stdout.write("The ten slowest test files (seconds each took, hooks included):\n");
  for (const { file, seconds } of slowest)
    process.stdout.write(`${seconds.toFixed(1).padStart(7)}  ${relative(root, file)}\n`);
  process.stdout.write("\n");
} catch {
  // No timings when vitest ended before its reporters did: the failures below say why.
}
if (chromiumMissing) process.stdout.write(`${chromiumMissing}\n`);
for (const failure of failures) process.stdout.write(`FAILED: ${failure}\n`);
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failures.length === 0 && failed === 0 ? 0 : 1);

// The README's test command: typecheck, schema/type freshness, package build, then every vitest
// project. Ends with one line "N passed, N failed" (the form CI reads).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
let passed = 0;
let failed = 0;

function step(name: string, command: string, args: string[]): boolean {
  process.stdout.write(`\n== ${name}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: process.env });
  const ok = result.status === 0;
  if (ok) passed++;
  else failed++;
  if (!ok) process.stdout.write(`FAILED: ${name}\n`);
  return ok;
}

if (!existsSync("/usr/bin/chromium")) {
  process.stdout.write("\nThe browser tests need Debian's Chromium at /usr/bin/chromium: run `apt-get install chromium` (.ci/run does).\n");
}
step("generated API types are fresh", "node", ["schema/scripts/generate-types.ts", "--check"]);
step("build packages (tsc -b schema packages/astro-comments)", "tsc", ["-b", "schema", "packages/astro-comments"]);
step("typecheck tests, scripts and mock server (tsc, strict)", "tsc", ["-p", "tsconfig.json"]);
step("astro check on examples/site", "astro", ["check", "--root", "examples/site"]);

const report = join(mkdtempSync(join(tmpdir(), "astro-comments-tests-")), "vitest.json");
process.stdout.write("\n== vitest\n");
const vitest = spawnSync("vitest", ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1" },
});
try {
  const summary = JSON.parse(readFileSync(report, "utf8")) as { numPassedTests: number; numFailedTests: number; numTotalTests: number };
  passed += summary.numPassedTests;
  failed += summary.numFailedTests;
  // A suite that crashed before reporting its tests counts as a failure, not as nothing.
  if (vitest.status !== 0 && summary.numFailedTests === 0) failed++;
} catch {
  failed++;
  process.stdout.write("FAILED: vitest wrote no report\n");
}

process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);

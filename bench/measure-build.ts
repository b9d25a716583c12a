// Runs one `astro build` in this process and prints, last, a JSON line (BuildMeasurement) with its
// wall time, its CPU time, the process's peak RSS, Astro's own phase timings and when each log line (other than
// the per-page ones) was written. Run as a child so each build's memory is its own.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "astro";

/** The last line this script prints. */
export interface BuildMeasurement {
  ms: number;
  maxRssKiB: number;
  /** CPU time of the build process, user and system, all its threads, ms: less shaken than wall time by a busy machine. */
  cpuMs: number;
  /** Astro's timer (ASTRO_TIMER_PATH): ms per phase, e.g. "Sync content layer", "Static generate". */
  phases: Record<string, number>;
  /** [ms since the build started, line] for every log line except the per-page ones ("├─ …"). */
  timeline: Array<[number, string]>;
}

const root = process.argv[2];
if (!root) throw new Error("usage: node bench/measure-build.ts <site root>");

// Astro's log has whole-second timestamps; this records each line's time to the millisecond, so a
// benchmark can tell how long the fetch, the rest of the content sync and page generation took.
const started = performance.now();
const timeline: Array<[number, string]> = [];
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  let partial = "";
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    const lines = (partial + String(chunk)).split("\n");
    partial = lines.pop()!;
    const at = Math.round(performance.now() - started);
    for (const line of lines) if (line.trim() !== "" && !line.includes("├─")) timeline.push([at, line.trim()]);
    return write(chunk, ...rest);
  }) as typeof stream.write;
}

// Astro writes its phase timer to this file at the end of a build when the variable is set.
const timerDir = mkdtempSync(join(tmpdir(), "ac-build-timer-"));
process.env.ASTRO_TIMER_PATH = join(timerDir, "timer.json");
try {
  await build({ root, logLevel: "info" });
  const ms = performance.now() - started;
  const timer = JSON.parse(readFileSync(process.env.ASTRO_TIMER_PATH, "utf8")) as Record<
    string,
    { elapsedTime: number }
  >;
  const phases = Object.fromEntries(Object.entries(timer).map(([name, stat]) => [name, stat.elapsedTime]));
  const usage = process.resourceUsage();
  const measurement: BuildMeasurement = {
    ms,
    maxRssKiB: usage.maxRSS,
    cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
    phases,
    timeline,
  };
  process.stdout.write(`\n${JSON.stringify(measurement)}\n`);
} finally {
  rmSync(timerDir, { recursive: true, force: true });
}

// Runs one `astro build` in this process and prints, last, a JSON line with its wall time and the
// process's peak RSS. Run as a child so each build's memory is its own.
import { build } from "astro";

const root = process.argv[2];
if (!root) throw new Error("usage: node bench/measure-build.ts <site root>");
const started = performance.now();
await build({ root, logLevel: "info" });
process.stdout.write(`\n${JSON.stringify({ ms: performance.now() - started, maxRssKiB: process.resourceUsage().maxRSS })}\n`);

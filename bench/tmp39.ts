import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { startMockServer } from "@astro-comments/mock-server";
import { oneLongThread } from "../packages/astro-comments/test/helpers/long-threads.ts";
const site = "bench/site/long-threads";
for (const dir of [".astro", "node_modules", "dist"]) rmSync(`${site}/${dir}`, { recursive: true, force: true });
const mock = await startMockServer({
  data: {
    format: "comments-mock-data",
    version: 1,
    domain: "example.com",
    comments: oneLongThread("/posts/busy", 200_000),
  },
});
const child = spawn(
  process.execPath,
  [...(process.env.NODEARGS ?? "").split(" ").filter(Boolean), "bench/measure-build.ts", site],
  {
    env: {
      ...process.env,
      BENCH_PAGES: process.env.P ?? "on",
      COMMENTS_DOMAIN: "example.com",
      COMMENTS_API_URL: mock.url,
      COMMENTS_API_TOKEN: mock.token,
      ASTRO_TELEMETRY_DISABLED: "1",
      NO_COLOR: "1",
    },
    stdio: ["ignore", "pipe", "inherit"],
  },
);
let last = "";
let max = 0;
const t0 = Date.now();
child.stdout.on("data", (c: Buffer) => {
  for (const l of c.toString().split("\n"))
    if (l.trim() && !l.includes("├─")) {
      last = l.slice(0, 90);
    }
});
const timer = setInterval(() => {
  try {
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))![1]) / 1024;
    if (rss > max + 20 || rss > max) {
      if (rss > max + 20) console.log(((Date.now() - t0) / 1000).toFixed(1), Math.round(rss), last);
      max = Math.max(max, rss);
    }
  } catch {}
}, 200);
await new Promise((r) => child.once("exit", r));
clearInterval(timer);
console.log("max", Math.round(max));
await mock.close();

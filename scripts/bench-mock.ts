// Requests/second of the mock for a page of 50 top-level comments, Prism validation on, against
// a bare node:http server sending the same bytes (the machine's ceiling), in one run.
// The server runs in a child process so load generation and serving get a core each.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus } from "node:os";
import { Pool } from "undici";
import { startMockProcess } from "./mock-process.ts";

const CONNECTIONS = 10;
const WARMUP_MS = 1_000;
const MEASURE_MS = Number(process.env.BENCH_MS ?? 5_000);


async function load(origin: string, paths: string[]): Promise<{ rps: number; p50: number; p99: number; bytes: number }> {
  const pool = new Pool(origin, { connections: CONNECTIONS, pipelining: 1 });
  const latencies: number[] = [];
  let bytes = 0;
  let index = 0;
  let measuring = false;
  let stop = false;
  const worker = async () => {
    while (!stop) {
      const path = paths[index++ % paths.length]!;
      const started = performance.now();
      const { statusCode, body } = await pool.request({ method: "GET", path, headers: { authorization: "Bearer mock-token" } });
      const text = await body.text();
      if (statusCode !== 200) throw new Error(`${path} answered ${statusCode}: ${text.slice(0, 200)}`);
      if (measuring) {
        latencies.push(performance.now() - started);
        bytes += text.length;
      }
    }
  };
  const workers = Array.from({ length: CONNECTIONS }, worker);
  await new Promise((resolve) => setTimeout(resolve, WARMUP_MS));
  measuring = true;
  const began = performance.now();
  await new Promise((resolve) => setTimeout(resolve, MEASURE_MS));
  measuring = false;
  const elapsed = performance.now() - began;
  stop = true;
  await Promise.all(workers);
  await pool.close();
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / (elapsed / 1000), p50: latencies[Math.floor(latencies.length / 2)] ?? 0, p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0, bytes: bytes / Math.max(latencies.length, 1) };
}

const { url, child } = await startMockProcess(["--size", "5000"]);
try {
  const paths = Array.from({ length: 20 }, (_, i) => `/api/comments?domain=example.com&per_page=50&page=${i + 1}`);
  const mock = await load(url, paths);

  // Baseline: a response of the same kind from memory, no Prism, no validation.
  const sample = await fetch(`${url}${paths[0]}`, { headers: { authorization: "Bearer mock-token" } }).then((r) => r.text());
  const bare = createServer((_, res) => res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(sample) }).end(sample));
  const bareChild = await new Promise<number>((resolve) => bare.listen(0, "127.0.0.1", () => resolve((bare.address() as AddressInfo).port)));
  // The bare server shares this process with the load generator, so it is an optimistic ceiling.
  const baseline = await load(`http://127.0.0.1:${bareChild}`, ["/"]);
  bare.close();

  const row = (name: string, r: typeof mock) =>
    `| ${name.padEnd(44)} | ${r.rps.toFixed(0).padStart(7)} | ${r.p50.toFixed(1).padStart(7)} | ${r.p99.toFixed(1).padStart(7)} | ${(r.bytes / 1024).toFixed(1).padStart(7)} |`;
  console.log(`\nMock throughput: ${CONNECTIONS} connections, ${MEASURE_MS / 1000} s, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Node ${process.version}`);
  console.log("| server                                       |   req/s | p50 ms  | p99 ms  | KiB/res |");
  console.log("|----------------------------------------------|---------|---------|---------|---------|");
  console.log(row("mock: Prism routing + validation, 50/page", mock));
  console.log(row("baseline: bare node:http, same bytes", baseline));
} finally {
  child.kill("SIGTERM");
}

// Requests/second of the mock for a page of 50 top-level comments, Prism validation on, against
// a bare node:http server sending the same bytes (the machine's ceiling), in one run.
// The mock runs in a child process so load generation and serving get a core each.
// `npm run bench:mock` prints one run; `npm run bench` leaves it out: it
// measures the mock, not what comments cost a build.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Pool } from "undici";
import { DEFAULT_TOKEN } from "../mock-server/src/defaults.ts";
import { startMockProcess } from "./child-processes.ts";
import { formatNumber, machineLine, markdownTable } from "./report.ts";

const CONNECTIONS = 10;
const WARMUP_MS = 1_000;

interface Throughput {
  rps: number;
  /** Latency percentiles, ms. */
  p50: number;
  p99: number;
  /** Mean response size, bytes. */
  bytes: number;
}

interface MockThroughput {
  mock: Throughput;
  /** Bare node:http sending the same pages from memory, in this process. */
  baseline: Throughput;
  connections: number;
  measureMs: number;
}

/** CONNECTIONS requests in flight for WARMUP_MS, then for measureMs while counting. */
async function load(origin: string, paths: readonly string[], measureMs: number): Promise<Throughput> {
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
      const { statusCode, body } = await pool.request({
        method: "GET",
        path,
        headers: { authorization: `Bearer ${DEFAULT_TOKEN}` },
      });
      const text = await body.text();
      if (statusCode !== 200) throw new Error(`${path} answered ${statusCode}: ${text.slice(0, 200)}`);
      if (measuring) {
        latencies.push(performance.now() - started);
        bytes += text.length;
      }
    }
  };
  // A failing worker stops the others, so the error surfaces now and not as an unhandled rejection.
  const workers = Promise.all(
    Array.from({ length: CONNECTIONS }, () =>
      worker().catch((error: unknown) => {
        stop = true;
        throw error;
      }),
    ),
  );
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  let elapsed = 0;
  try {
    await Promise.race([sleep(WARMUP_MS), workers]);
    measuring = true;
    const began = performance.now();
    await Promise.race([sleep(measureMs), workers]);
    measuring = false;
    elapsed = performance.now() - began;
    stop = true;
    await workers;
  } finally {
    stop = true;
    await workers.catch(() => undefined);
    await pool.close();
  }
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / (elapsed / 1000),
    p50: latencies[Math.floor(latencies.length / 2)] ?? 0,
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    bytes: bytes / Math.max(latencies.length, 1),
  };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

/** One measurement of the mock (its own process, --size 5000) and of the bare baseline, one after the other. */
async function measureMockThroughput({ measureMs = 5_000 }: { measureMs?: number } = {}): Promise<MockThroughput> {
  const mockProcess = await startMockProcess(["--size", "5000"]);
  try {
    const paths = Array.from({ length: 20 }, (_, i) => `/api/comments?domain=example.com&per_page=50&page=${i + 1}`);
    const mock = await load(mockProcess.url, paths, measureMs);

    // Baseline: the same 20 responses from memory, no Prism, no validation.
    const pages = new Map<string, string>();
    for (const path of paths)
      pages.set(
        path,
        await fetch(`${mockProcess.url}${path}`, { headers: { authorization: `Bearer ${DEFAULT_TOKEN}` } }).then((r) =>
          r.text(),
        ),
      );
    const bare = createServer((req, res) => {
      const page = pages.get(req.url ?? "") ?? "";
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(page) }).end(page);
    });
    try {
      // The bare server shares this process with the load generator, so it is an optimistic ceiling.
      const baseline = await load(`http://127.0.0.1:${await listen(bare)}`, paths, measureMs);
      return { mock, baseline, connections: CONNECTIONS, measureMs };
    } finally {
      bare.closeAllConnections();
      await new Promise((resolve) => bare.close(resolve));
    }
  } finally {
    await mockProcess.close();
  }
}

if (import.meta.main) {
  const result = await measureMockThroughput({ measureMs: Number(process.env.BENCH_MS ?? 5_000) });
  const row = (name: string, r: Throughput) => [
    name,
    formatNumber(r.rps),
    r.p50.toFixed(1),
    r.p99.toFixed(1),
    (r.bytes / 1024).toFixed(1),
  ];
  console.log(
    `\nMock throughput: ${result.connections} connections, ${result.measureMs / 1000} s — ${machineLine()}\n`,
  );
  console.log(
    markdownTable(
      ["server", "req/s", "p50 ms", "p99 ms", "KiB/res"],
      ["left", "right", "right", "right", "right"],
      [
        row("mock: Prism routing + validation, 50/page", result.mock),
        row("baseline: bare node:http, same pages from memory", result.baseline),
      ],
    ),
  );
}

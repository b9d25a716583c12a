#!/usr/bin/env node
// npm run mock -- --port 4010 [--token T] [--size N] [--seed S] [fault options]
import { parseArgs } from "node:util";
import { DEFAULT_MAX_PER_PAGE, DEFAULT_TOKEN, startMockServer } from "./server.ts";
import type { FaultOptions } from "./faults.ts";

const usage = `Usage: npm run mock -- [options]

  --port N                 port to listen on (default 4010; 0 = any free port)
  --host H                 address to bind (default 127.0.0.1)
  --token T                the bearer token accepted (default ${DEFAULT_TOKEN})
  --seed S                 dataset and fault seed (default 1)
  --size N                 approved top-level comments over all domains (default 600; replies come on top)
  --paths N                distinct page paths (default size/10, at least 20)
  --domains A,B            put the random comments on these domains, evenly (default: three example domains)
  --max-per-page N         cap on per_page (default ${DEFAULT_MAX_PER_PAGE})
  --keep-query             keep domain/path/per_page in pagination links (the real service drops them)
Faults (deterministic from --seed):
  --latency MS             added to every response
  --latency-spike-rate R   share of responses delayed a further --latency-spike MS
  --latency-spike MS
  --error-rate R           share of requests answered 500/503 (0..1)
  --drop-rate R            share of connections dropped (0..1)
  --rate-limit N           requests per window per token, then 429 with Retry-After
  --rate-window MS         throttle window (default 60000)
  --max-consecutive-faults N  no request fails more often in a row (default 3)
  --approve-after N        approve pending comments after N requests (total changes mid-crawl)
  --approve-count N        how many (default 1)`;

function number(name: string, value: string | undefined, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < min || parsed > max) {
    process.stderr.write(`--${name} must be a number from ${min} to ${max}, got "${value}".\n\n${usage}\n`);
    process.exit(2);
  }
  return parsed;
}

let args;
try {
  args = parseArgs({
    strict: true,
    options: {
      ...Object.fromEntries(
        ["port", "host", "token", "seed", "size", "paths", "domains", "max-per-page", "latency", "latency-spike-rate", "latency-spike", "error-rate", "drop-rate", "rate-limit", "rate-window", "max-consecutive-faults", "approve-after", "approve-count"]
          .map((name) => [name, { type: "string" as const }]),
      ),
      "keep-query": { type: "boolean" },
      help: { type: "boolean" },
    },
  }).values as Record<string, string | boolean | undefined>;
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n\n${usage}\n`);
  process.exit(2);
}
if (args.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
const str = (name: string) => args[name] as string | undefined;
const seed = number("seed", str("seed")) ?? 1;
const rateLimit = number("rate-limit", str("rate-limit"), { min: 1 });
const approveAfter = number("approve-after", str("approve-after"), { min: 1 });
const faults: FaultOptions = {
  seed,
  latencyMs: number("latency", str("latency")),
  latencySpikeRate: number("latency-spike-rate", str("latency-spike-rate"), { max: 1 }),
  latencySpikeMs: number("latency-spike", str("latency-spike")),
  errorRate: number("error-rate", str("error-rate"), { max: 1 }),
  dropRate: number("drop-rate", str("drop-rate"), { max: 1 }),
  maxConsecutiveFaults: number("max-consecutive-faults", str("max-consecutive-faults")),
  ...(rateLimit ? { rateLimit: { limit: rateLimit, windowMs: number("rate-window", str("rate-window"), { min: 1 }) ?? 60_000 } } : {}),
  ...(approveAfter ? { approveDuringCrawl: { afterRequests: approveAfter, count: number("approve-count", str("approve-count"), { min: 1 }) ?? 1 } } : {}),
};

const server = await startMockServer({
  port: number("port", str("port"), { max: 65535 }) ?? 4010,
  host: str("host") ?? "127.0.0.1",
  token: str("token") ?? DEFAULT_TOKEN,
  dataset: {
    seed,
    size: number("size", str("size")),
    paths: number("paths", str("paths"), { min: 1 }),
    ...(str("domains") ? { domains: str("domains")!.split(",").map((d, _, all) => [d.trim(), 1 / all.length] as const) } : {}),
  },
  maxPerPage: number("max-per-page", str("max-per-page"), { min: 1 }),
  keepQueryInLinks: Boolean(args["keep-query"]),
  faults,
});

const domains = server.domains.map(({ domain, total }) => `  ${domain} (${total} top-level comments)`).join("\n");
process.stdout.write(`Comments API mock listening on ${server.url}
  endpoint: ${server.url}/api/comments
  token:    ${server.token}
domains:
${domains}
Try: curl -H "Authorization: Bearer ${server.token}" "${server.url}/api/comments?domain=example.com&per_page=2"
Press Ctrl+C to stop.
`);
const stop = () => void server.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

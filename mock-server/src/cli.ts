#!/usr/bin/env node
// npm run mock -- --port 4010 [--token T] [--size N] [--seed S] [fault options]
import { parseArgs } from "node:util";
import { DEFAULT_MAX_PER_PAGE, DEFAULT_PORT, DEFAULT_TOKEN } from "./defaults.ts";
import { startMockServer } from "./server.ts";
import type { FaultOptions } from "./faults.ts";

const usage = `Usage: npm run mock -- [options]

  --port N                 port to listen on (default ${DEFAULT_PORT}; 0 = any free port)
  --host H                 address to bind (default 127.0.0.1)
  --token T                the bearer token accepted (default ${DEFAULT_TOKEN})
  --seed S                 dataset and fault seed (default 1)
  --size N                 approved top-level comments over all domains (default 600; replies come on top)
  --paths N                distinct page paths (default size/10, at least 20)
  --domains A,B            put the random comments on these domains, evenly (default: three example domains)
  --max-per-page N         the largest per_page served (default ${DEFAULT_MAX_PER_PAGE})
  --per-page-limit cap|reject  a larger per_page: serve the maximum (cap, default) or answer
                           Laravel 8's 422 "The per page may not be greater than N." (reject)
  --keep-query             keep domain/path/per_page in pagination links (the real service drops them)
  --string-numbers         send meta.per_page as a JSON string ("50"), as Laravel < 9.2 does
  --twins N                add N pairs of identical approved comments on example.com's showcase posts
  --whole-second-timestamps  created_at ending in .000000Z, many comments sharing a second
  --laravel8               a real Laravel 8 app: --per-page-limit reject --string-numbers --twins 3
                           --whole-second-timestamps (--per-page-limit cap or --twins N override it)
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
  --approve-count N        how many (default 1)
Admin routes (same bearer token; not part of the API, not validated by Prism):
  POST /__admin/comments   {"domain","path","name","content", optional "html", "status":
                           "approved"|"pending", "replyTo": <id>, "created_at"} -> 201 the stored comment
  POST /__admin/comments/<id>/approve  -> 200 the comment, 404 if there is none
  POST /__admin/outage     {"mode": "down"|"hang"|"trickle"|"500"|"off"} -> 200; every /api/comments
                           request is then dropped, left unanswered, sent a never-ending body,
                           answered 500, or served normally again
  From a shell: node mock-server/src/admin-cli.ts --help`;

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
        ["port", "host", "token", "seed", "size", "paths", "domains", "max-per-page", "per-page-limit", "twins", "latency", "latency-spike-rate", "latency-spike", "error-rate", "drop-rate", "rate-limit", "rate-window", "max-consecutive-faults", "approve-after", "approve-count"]
          .map((name) => [name, { type: "string" as const }]),
      ),
      ...Object.fromEntries(["keep-query", "string-numbers", "whole-second-timestamps", "laravel8"].map((name) => [name, { type: "boolean" as const }])),
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
// Unset flags stay undefined, so the --laravel8 preset can fill them in.
const flag = (name: string) => (args[name] ? true : undefined);
const perPageLimit = str("per-page-limit");
if (perPageLimit !== undefined && perPageLimit !== "cap" && perPageLimit !== "reject") {
  process.stderr.write(`--per-page-limit must be cap or reject, got "${perPageLimit}".\n\n${usage}\n`);
  process.exit(2);
}
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
  port: number("port", str("port"), { max: 65535 }) ?? DEFAULT_PORT,
  host: str("host") ?? "127.0.0.1",
  token: str("token") ?? DEFAULT_TOKEN,
  dataset: {
    seed,
    size: number("size", str("size")),
    paths: number("paths", str("paths"), { min: 1 }),
    ...(str("domains") ? { domains: str("domains")!.split(",").map((d, _, all) => [d.trim(), 1 / all.length] as const) } : {}),
    twins: number("twins", str("twins")),
    wholeSecondTimestamps: flag("whole-second-timestamps"),
  },
  maxPerPage: number("max-per-page", str("max-per-page"), { min: 1 }),
  perPageLimit,
  stringNumbers: flag("string-numbers"),
  laravel8: flag("laravel8"),
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
Add a comment: node mock-server/src/admin-cli.ts --url ${server.url} --token ${server.token} add --domain example.com --path /posts/hello-world --name Ann --content "Hi"
Press Ctrl+C to stop.
`);
const stop = () => void server.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

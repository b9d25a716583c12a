// comments-mock [options]: serves the API until interrupted. The first line printed names the
// URL, the token and the domains, in a fixed form that scripts read (see the README).
import { parseArgs } from "node:util";
import { MockDataError } from "../data-file.ts";
import { DEFAULT_MAX_PER_PAGE, DEFAULT_PORT, DEFAULT_TOKEN } from "../defaults.ts";
import type { FaultOptions } from "../faults.ts";
import { isThisMachineOnly } from "../page/page-access.ts";
import { startMockServer, type MockServer, type MockServerOptions } from "../server.ts";
import { CommandError, UsageError } from "./cli-errors.ts";

const usage = `Usage: comments-mock [options]           serve the comments API (this command)
       comments-mock record --out FILE   save your site's comments from the real service to FILE
       comments-mock verify [--strict]   check the real service against the API contract
       comments-mock admin <command>     add or approve comments, or cause an outage, in a running mock

Serves GET /api/comments as the comments service does (Laravel's pagination and quirks), every
response checked by Stoplight Prism against the API contract. The first line printed is
  Comments API mock listening on <url> token=<token> domains=<domain>[,<domain>...]

What it serves:
  --domain D               your site's domain (repeatable): the generated comments are served under
                           it and no other; --paths puts them on your pages
  --paths N|/a,/b          the pages of the generated comments: N generic paths (default size/10, at
                           least 20), or your site's paths, comma-separated
  --data FILE              exactly the comments in FILE (as \`comments-mock record\` writes it),
                           approved ones only; repeatable, one file per domain; with --domain, the
                           file's comments are served under that domain instead
  --seed S                 dataset and fault seed (default 1)
  --size N                 approved top-level comments (default 600; replies come on top)
  --domains A,B            without --domain: spread the random comments over these domains; the
                           showcase threads stay on example.com (default: three example domains)
  --twins N                add N pairs of identical approved comments on the showcase posts
  --whole-second-timestamps  created_at ending in .000000Z, many comments sharing a second
Server:
  --port N                 port to listen on (default ${DEFAULT_PORT}; 0 = any free port)
  --host H                 address to bind (default 127.0.0.1)
  --token T                the bearer token accepted (default ${DEFAULT_TOKEN})
  --ui                     serve the page (below) on a --host other machines can reach, too
  --max-per-page N         the largest per_page served (default ${DEFAULT_MAX_PER_PAGE})
  --per-page-limit cap|reject  a larger per_page: serve the maximum (cap, default) or answer
                           Laravel 8's 422 "The per page may not be greater than N." (reject)
  --keep-query             keep domain/path/per_page in pagination links (the real service drops them)
  --string-numbers         send meta.per_page as a JSON string ("50"), as Laravel < 9.2 does
  --without-accept-json warn|laravel  a request without Accept: application/json: answer as
                           always and warn once (warn, default), or answer its errors as Laravel
                           does: 401 and 422 as redirects, the rest as HTML pages (laravel)
  --laravel8               a real Laravel 8 app: --per-page-limit reject --string-numbers --twins 3
                           --whole-second-timestamps --without-accept-json laravel (each of these
                           given explicitly overrides it)
Faults (deterministic from --seed):
  --latency MS             added to every response
  --latency-spike-rate R   share of responses delayed a further --latency-spike MS
  --latency-spike MS
  --error-rate R           share of requests answered 500/503 (0..1)
  --drop-rate R            share of connections dropped (0..1)
  --rate-limit N           requests per period per token, then 429 with Retry-After
  --rate-window MS         the rate limit's period (default 60000)
  --max-consecutive-faults N  no request fails more often in a row (default 3)
  --approve-after N        approve pending comments after N requests (total changes mid-crawl)
  --approve-count N        how many (default 1)
Admin routes (same bearer token, no Origin header: not from web pages; not part of the API):
  POST /__admin/comments   {"domain","path","name","content", optional "html", "status":
                           "approved"|"pending", "replyTo": <id>, "created_at"} -> 201 the stored comment
  POST /__admin/comments/<id>/approve  -> 200 the comment, 404 if there is none
  POST /__admin/outage     {"mode": "down"|"hang"|"trickle"|"500"|"off"} -> 200; every /api/comments
                           request is then dropped, left unanswered, sent a never-ending body,
                           answered 500, or served normally again
  POST /__admin/comments/<id>/reject|delete, POST /__admin/faults {"latencyMs","errorRate","dropRate",
                           "rateLimit": {"limit","windowMs"} | null}, POST /__admin/sign-in -> {"url"}
  From a shell: comments-mock admin --help
The page (/__mock/): see, add and moderate the comments, switch outages and faults, and the last
requests. The second line printed is a link that opens it signed in; it works once. On a --host
other than this machine's (127.0.0.1, localhost, ::1) it is off unless --ui is given.`;

const stringOptions = [
  "port",
  "host",
  "token",
  "seed",
  "size",
  "paths",
  "domains",
  "max-per-page",
  "per-page-limit",
  "without-accept-json",
  "twins",
  "latency",
  "latency-spike-rate",
  "latency-spike",
  "error-rate",
  "drop-rate",
  "rate-limit",
  "rate-window",
  "max-consecutive-faults",
  "approve-after",
  "approve-count",
] as const;
const booleanOptions = ["keep-query", "string-numbers", "whole-second-timestamps", "laravel8", "ui"] as const;
/** Options that shape the generated comments, which --data replaces. */
const datasetOptions = ["size", "paths", "domains", "twins", "whole-second-timestamps"] as const;

function number(
  name: string,
  value: string | undefined,
  { min = 0, max = Number.MAX_SAFE_INTEGER } = {},
): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isFinite(parsed) || parsed < min || parsed > max)
    throw new UsageError(`--${name} must be a number from ${min} to ${max}, not "${value}".`);
  return parsed;
}

function domainOf(value: string): string {
  if (value.includes("/") || /\s/.test(value) || value === "") {
    throw new UsageError(
      `--domain takes your site's domain as the comments service knows it, such as my-site.com, not "${value}".`,
    );
  }
  return value;
}

function pathsOf(value: string | undefined): number | string[] | undefined {
  if (value === undefined || /^[0-9]+$/.test(value)) return number("paths", value, { min: 1 });
  const paths = value
    .split(",")
    .map((path) => path.trim())
    .filter((path) => path !== "");
  const bad = paths.find((path) => !path.startsWith("/"));
  if (paths.length === 0 || bad !== undefined)
    throw new UsageError(
      `--paths takes a number or your site's page paths, comma-separated, each starting with "/" (such as /,/posts/hello), not "${value}".`,
    );
  return paths;
}

/** Reads the command line into the server's options; throws UsageError on anything it does not take. */
function serveOptions(argv: string[]): MockServerOptions | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      options: {
        ...Object.fromEntries(stringOptions.map((name) => [name, { type: "string" as const }])),
        ...Object.fromEntries(booleanOptions.map((name) => [name, { type: "boolean" as const }])),
        domain: { type: "string", multiple: true },
        data: { type: "string", multiple: true },
        help: { type: "boolean" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const args = parsed.values as Record<string, string | boolean | string[] | undefined>;
  if (args.help) return "help";
  const str = (name: string) => args[name] as string | undefined;
  // Unset flags stay undefined, so the --laravel8 preset can fill them in.
  const flag = (name: string) => (args[name] ? true : undefined);
  const domain = ((args.domain as string[] | undefined) ?? []).map(domainOf);
  const data = (args.data as string[] | undefined) ?? [];

  if (data.length > 0) {
    const shaping = datasetOptions.find((name) => args[name] !== undefined);
    if (shaping)
      throw new UsageError(
        `--${shaping} shapes the generated comments, and --data serves the file's instead: leave one out.`,
      );
  }
  if (domain.length > 0 && args.domains !== undefined)
    throw new UsageError(
      "--domain serves everything under your domain; --domains spreads the random comments over example domains: give one of them.",
    );
  const token = str("token") ?? DEFAULT_TOKEN;
  if (token === "" || /\s/.test(token))
    throw new UsageError("--token must be one word: the mock expects it in an Authorization: Bearer header.");
  const perPageLimit = str("per-page-limit");
  if (perPageLimit !== undefined && perPageLimit !== "cap" && perPageLimit !== "reject")
    throw new UsageError(`--per-page-limit must be cap or reject, not "${perPageLimit}".`);
  const withoutAcceptJson = str("without-accept-json");
  if (withoutAcceptJson !== undefined && withoutAcceptJson !== "warn" && withoutAcceptJson !== "laravel")
    throw new UsageError(`--without-accept-json must be warn or laravel, not "${withoutAcceptJson}".`);

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
    ...(rateLimit
      ? { rateLimit: { limit: rateLimit, windowMs: number("rate-window", str("rate-window"), { min: 1 }) ?? 60_000 } }
      : {}),
    ...(approveAfter
      ? {
          approveDuringCrawl: {
            afterRequests: approveAfter,
            count: number("approve-count", str("approve-count"), { min: 1 }) ?? 1,
          },
        }
      : {}),
  };
  return {
    port: number("port", str("port"), { max: 65535 }) ?? DEFAULT_PORT,
    host: str("host") ?? "127.0.0.1",
    token,
    ...(domain.length > 0 ? { domain } : {}),
    ...(data.length > 0 ? { data } : {}),
    dataset: {
      seed,
      size: number("size", str("size")),
      paths: pathsOf(str("paths")),
      ...(str("domains")
        ? {
            domains: str("domains")!
              .split(",")
              .map((d, _, all) => [d.trim(), 1 / all.length] as const),
          }
        : {}),
      twins: number("twins", str("twins")),
      wholeSecondTimestamps: flag("whole-second-timestamps"),
    },
    maxPerPage: number("max-per-page", str("max-per-page"), { min: 1 }),
    perPageLimit,
    withoutAcceptJson,
    stringNumbers: flag("string-numbers"),
    laravel8: flag("laravel8"),
    keepQueryInLinks: Boolean(args["keep-query"]),
    ...(args.ui ? { ui: true } : {}),
    faults,
  };
}

/** What the mock prints once it listens; the first line's form is part of the command's interface. */
function banner(server: MockServer, host: string): string {
  const domains = server.domains.map(({ domain }) => domain);
  const first = server.domains.find(({ total }) => total > 0)?.domain ?? domains[0] ?? "example.com";
  const path = server.store.threads(first)[0]?.path ?? "/";
  const signIn = server.signInUrl();
  const page =
    signIn === undefined
      ? `Page: off, since --host ${host} lets other machines reach the mock; pass --ui to serve it anyway.`
      : `Page (signed in; the link works once): ${signIn}${isThisMachineOnly(host) ? "" : `\nWarning: --ui on --host ${host}: the page and its link travel unencrypted over your network; whoever opens the link first is signed in.`}`;
  return `Comments API mock listening on ${server.url} token=${server.token} domains=${domains.join(",")}
${page}
  endpoint:  ${server.url}/api/comments
  your site: COMMENTS_API_URL=${server.url} COMMENTS_API_TOKEN=${server.token} COMMENTS_DOMAIN=${first}
domains:
${server.domains.map(({ domain, total }) => `  ${domain} (${total} top-level comments)`).join("\n")}
Try: curl -H "Authorization: Bearer ${server.token}" "${server.url}/api/comments?domain=${encodeURIComponent(first)}&per_page=2"
Add a comment: npx comments-mock admin --url ${server.url} --token ${server.token} add --domain ${first} --path ${path} --name Ann --content "Hi"
Press Ctrl+C to stop.
`;
}

export async function main(argv: string[]): Promise<number | undefined> {
  const options = serveOptions(argv);
  if (options === "help") {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  let server: MockServer;
  try {
    server = await startMockServer(options);
  } catch (error) {
    if (error instanceof MockDataError) throw new CommandError(error.message);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE" || code === "EACCES") {
      throw new CommandError(
        `Cannot listen on ${options.host}:${options.port}: ${code === "EADDRINUSE" ? "the port is in use" : "permission denied"}. Pass another --port (0 picks a free one).`,
      );
    }
    throw error;
  }
  process.stdout.write(banner(server, options.host ?? "127.0.0.1"));
  const stop = () => void server.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return undefined;
}

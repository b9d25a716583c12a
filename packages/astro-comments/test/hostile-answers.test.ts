// A scripted HTTP server on 127.0.0.1 in front of the mock answers one sync at a time with a broken
// or hostile answer (issue 25's list and more). For every answer the loader's sync either succeeds
// with sane output or falls back to the last good comments with one WARN line naming what failed,
// the URL and what to do; no control character reaches a log line, an error or the HTML; no NUL
// reaches the HTML; the token reaches no other host and no output; no stack trace is printed.
// Answers that never end are ended by the client's own timeout and giveUpAfter, set small here.
import { startMockServer, type MockServer } from "@astro-comments/mock-server";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { check } from "../src/cli/check.ts";
import type { PageCommentsData } from "../src/loader/entry-schema.ts";
import { CommentsApiError } from "../src/errors.ts";
import { resolveOptions, type CommentsOptions } from "../src/integration/options.ts";
import { commentItemsHtml } from "../src/render/comment-markup.ts";
import { commentsJsonLd, serializeJsonLd } from "../src/render/json-ld.ts";
import type { SiteHandoff } from "../src/site-registry.ts";
import { syncComments } from "../src/loader/sync-comments.ts";
import { astroBin, listFiles } from "./helpers/astro-cli.ts";
import { loaderContext, storedComments } from "./helpers/loader-context.ts";
import { deadlineAfterHeaders } from "./helpers/deadline-clock.ts";
import { recordingSleep, serve } from "./helpers/servers.ts";
import { copySite, type SiteCopy } from "./helpers/site-copy.ts";

const TOKEN = "tok-HOSTILE-2511-secret";
const DOMAIN = "example.com";
// Every character a terminal acts on, or that a log viewer reorders, rather than shows.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
// What HTML does not allow in a document (tab, LF, FF and CR are whitespace).
const NOT_HTML = /[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f]|\p{Cs}/u;
const HOSTILE_TEXT = "\u0000\b\u001b]0;PWNED\u0007\u001b[2J\r\u009b31m\u202eevil\u2028";

type Page = { data: Array<Record<string, unknown>>; meta: Record<string, unknown>; links: Record<string, unknown> };
interface Answer {
  req: IncomingMessage;
  res: ServerResponse;
  /** The mock's own answer to this request. */
  upstream: () => Promise<{ status: number; contentType: string; text: string }>;
  /** The mock's page, parsed, to be spoiled. */
  page: () => Promise<Page>;
  /** Requests this case has answered before this one. */
  n: number;
}
interface Case {
  name: string;
  answer: (a: Answer) => unknown;
  /** "ok": the sync succeeds; otherwise what the fallback's reason must match. */
  outcome: "ok" | RegExp;
  options?: CommentsOptions;
  /** The client's deadline runs out only once the headers are in (helpers/deadline-clock.ts). */
  deadlineAfterHeaders?: true;
}

let mock: MockServer;
let api: { url: string; close: () => Promise<void> };
let elsewhere: { url: string; close: () => Promise<void> };
let answer: ((a: Answer) => unknown) | undefined;
let answered = 0;
const tokenSeenElsewhere: string[] = [];

async function upstream(req: IncomingMessage) {
  const response = await fetch(new URL(req.url!, mock.url), {
    headers: { authorization: req.headers.authorization ?? "", accept: "application/json" },
  });
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    text: await response.text(),
  };
}

beforeAll(async () => {
  mock = await startMockServer({ token: TOKEN, dataset: { seed: 25, size: 30 } });
  api = await serve((req, res) => {
    const a: Answer = {
      req,
      res,
      upstream: () => upstream(req),
      page: async () => JSON.parse((await upstream(req)).text) as Page,
      n: answered++,
    };
    // A handler that throws (Node refuses some headers) drops the connection rather than hanging it.
    const handler = answer ?? passThrough;
    void Promise.resolve(a)
      .then(handler)
      .catch((error: unknown) => res.destroy(error as Error));
  });
  // Another host, as far as the client can tell: whatever reaches it is recorded.
  elsewhere = await serve((req, res) => {
    tokenSeenElsewhere.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)}`);
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
});
afterAll(async () => {
  await Promise.all([api?.close(), elsewhere?.close(), mock?.close()]);
});

async function passThrough({ res, upstream: fetchUpstream }: Answer) {
  const { status, contentType, text } = await fetchUpstream();
  res.writeHead(status, { "content-type": contentType }).end(text);
}
const json = (res: ServerResponse, body: string | Buffer, status = 200, headers: Record<string, string> = {}) =>
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(body);
/** Bytes as they go on the wire, for what Node's own server refuses to write (control bytes in headers). */
const raw = (res: ServerResponse, bytes: string) => res.socket!.end(Buffer.from(bytes, "latin1"));
const spoil = (edit: (page: Page) => unknown) => async (a: Answer) => {
  const page = await a.page();
  const replaced = edit(page);
  json(a.res, JSON.stringify(replaced ?? page));
};
/** A thread whose replies are nested `depth` deep, as JSON text (JSON.stringify would run out of stack first). */
const deepThread = (depth: number) => {
  const fields =
    '"created_at":"2024-01-01T00:00:00.000000Z","content":"x","html":"<p>x</p>","status":"approved","name":"Deep","path":"/deep"';
  return `${`{${fields},"children":[`.repeat(depth)}{${fields},"children":[]}${"]}".repeat(depth)}`;
};
/** A body sent as fast as the client takes it: `bytes` long, or never ending. */
function flood(res: ServerResponse, chunk: Buffer, bytes = Number.POSITIVE_INFINITY) {
  res.writeHead(200, { "content-type": "application/json" });
  let sent = 0;
  const write = () => {
    for (let more = true; more && !res.destroyed; ) {
      if (sent >= bytes) return void res.end();
      sent += chunk.length;
      more = res.write(chunk);
    }
    if (!res.destroyed) res.once("drain", write);
  };
  write();
}
/** A body that trickles a byte at a time, never ending, until the client hangs up. */
function trickle(res: ServerResponse, first: string) {
  res.writeHead(200, { "content-type": "application/json" });
  res.write(first);
  const timer = setInterval(() => res.write(" "), 20);
  res.once("close", () => clearInterval(timer));
}
// For answers that never end: the deadline bounds the hang. Headers that come at once must not race
// it, so a case whose body trickles lets the deadline's time pass only once the headers are in.
const short = { timeout: 300, retries: 1, giveUpAfter: 1_000 } satisfies CommentsOptions;
// For answers that arrive at once but break: a deadline no busy machine reaches, so the reason is
// the breakage, never a timeout while the client still waits for it.
const prompt = { timeout: 30_000, retries: 1, giveUpAfter: 60_000 } satisfies CommentsOptions;
const url = String.raw`\(http://127\.0\.0\.1:\d+/api/comments\S*?(, HTTP \d{3})?\)\. (?=[A-Z])`;
const reason = (what: string) => new RegExp(`${what}.*${url}`);

const cases: Case[] = [
  // Issue 25's list.
  {
    name: "a PHP notice before the JSON (HTTP 200, application/json)",
    answer: async (a) =>
      json(
        a.res,
        `<br />\n<b>Deprecated</b>:  Function x() is deprecated in <b>/var/www/api.php</b> on line <b>3</b><br />\n${(await a.upstream()).text}`,
      ),
    outcome: reason(
      String.raw`the response is not valid JSON \(Unexpected token '<'; starts "<br />\\n<b>Deprecated</b>`,
    ),
  },
  {
    name: "control bytes and a terminal title command before the JSON",
    answer: async (a) => json(a.res, `${HOSTILE_TEXT}${(await a.upstream()).text}`),
    outcome: reason(String.raw`not valid JSON \(Unexpected token '\\x00'; starts "\\x00\\x08\\x1b\]0;PWNED\\x07`),
  },
  {
    name: "control bytes, bidi overrides and NUL inside names, bodies and paths",
    answer: spoil((page) => {
      page.data.forEach((comment, i) =>
        Object.assign(comment, {
          name: `Ann${HOSTILE_TEXT}`,
          content: `c${HOSTILE_TEXT}`,
          html: i % 2 ? "" : `<p>b${HOSTILE_TEXT}&#0;&#1;</p>`,
        }),
      );
      // A path the site builds no page for, percent-encoded: decoded to a page key, it holds ESC and NUL.
      Object.assign(page.data[0]!, { path: "/posts/evil%1b]0;PWNED%07%00%E2%80%AE/" });
    }),
    outcome: "ok",
  },
  {
    name: "a UTF-8 byte order mark before the JSON",
    answer: async (a) => json(a.res, `\ufeff${(await a.upstream()).text}`),
    outcome: "ok",
  },
  {
    name: "replies nested 10,000 deep",
    answer: async (a) => json(a.res, (await a.upstream()).text.replace('"data":[', `"data":[${deepThread(10_000)},`)),
    outcome: reason("does not match the comments API contract"),
  },
  {
    name: "a 60 MiB body (maxResponseBytes 5 MiB)",
    answer: (a) => flood(a.res, Buffer.alloc(64 * 1024, 0x20), 60 * 1024 * 1024),
    options: { maxResponseBytes: 5 * 1024 * 1024 },
    outcome: reason("a response was larger than 5242880 bytes"),
  },
  {
    name: "a body that never ends, sent as fast as it is read",
    answer: (a) => flood(a.res, Buffer.from('{"data":[{"x":"\u001b]0;PWNED\u0007"},'.repeat(1000))),
    options: { maxResponseBytes: 2 * 1024 * 1024 },
    outcome: reason("larger than 2097152 bytes"),
  },
  {
    name: "a body that never ends, trickled",
    answer: (a) => trickle(a.res, '{"data":['),
    options: short,
    deadlineAfterHeaders: true,
    outcome: reason("the response body was still arriving after"),
  },
  {
    name: "a gzip bomb (Content-Encoding: gzip, 100 MiB of spaces)",
    answer: (a) =>
      json(a.res, gzipSync(Buffer.alloc(100 * 1024 * 1024, 0x20), { level: 9 }), 200, { "content-encoding": "gzip" }),
    outcome: reason(String.raw`not valid JSON .*starts "\\x1f`),
  },
  {
    name: "a truncated gzip body",
    answer: async (a) =>
      json(a.res, gzipSync((await a.upstream()).text).subarray(0, 40), 200, { "content-encoding": "gzip" }),
    outcome: reason("not valid JSON"),
  },
  {
    name: "__proto__ and duplicate keys",
    answer: async (a) =>
      json(
        a.res,
        (await a.upstream()).text
          .replace('"meta":{', '"meta":{"__proto__":{"polluted":1},"total":-5,')
          .replace('"name":', '"__proto__":{"polluted":1},"name":"first","name":'),
      ),
    outcome: "ok",
  },
  {
    name: "last_page 1e12",
    answer: spoil((page) => void (page.meta.last_page = 1e12)),
    outcome: reason("meta is inconsistent"),
  },
  {
    name: "last_page -1",
    answer: spoil((page) => void (page.meta.last_page = -1)),
    outcome: reason("(does not match the comments API contract|meta is inconsistent)"),
  },
  {
    name: "last_page 2.5",
    answer: spoil((page) => void (page.meta.last_page = 2.5)),
    outcome: reason("does not match the comments API contract"),
  },
  {
    name: "a captive portal's login page",
    answer: (a) =>
      a.res
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(
          '<!DOCTYPE html>\n<html><head><title>Hotel Wi-Fi \u2014 Log in</title><script>location="/login"</script></head>\n<body><form action="/login"><input name="room"></form></body></html>',
        ),
    outcome: reason(String.raw`expected JSON but the response is "text/html" \(starts "<!DOCTYPE html>\\n<html>`),
  },
  {
    name: "a 301 to another host, with user and password in Location",
    answer: (a) =>
      a.res
        .writeHead(301, {
          location: `${elsewhere.url.replace("http://", "http://user:hunter2@")}/api/comments?token=${TOKEN}`,
        })
        .end(),
    outcome: new RegExp(
      `redirected the request to "http://127\\.0\\.0\\.1:\\d+/api/comments\\?token=\\[token\\]", and redirects are not followed.*${url}.*Set COMMENTS_API_URL \\(or the apiUrl option\\) to the final address, http://127\\.0\\.0\\.1:\\d+, if you trust it`,
    ),
  },
  ...[302, 303, 307, 308].map(
    (status): Case => ({
      name: `a ${status} to another host`,
      answer: (a) => a.res.writeHead(status, { location: `${elsewhere.url}/v2/api/comments` }).end(),
      outcome: new RegExp(
        `redirected the request to "http://127\\.0\\.0\\.1:\\d+/v2/api/comments".*${url}.*to the final address, http://127\\.0\\.0\\.1:\\d+/v2, if you trust it`,
      ),
    }),
  ),
  {
    name: "a redirect whose Location holds an ESC and a newline",
    answer: (a) =>
      raw(
        a.res,
        `HTTP/1.1 302 Found\r\nLocation: /x\u001b]0;PWNED\u0007\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      ),
    options: prompt,
    outcome: reason("(redirected|connection failed)"),
  },
  {
    name: "a list that never holds still",
    answer: spoil((page) => {
      // Every answer holds one more page of comments than the one before, in meta that adds up.
      const grown = answered;
      Object.assign(page.meta, {
        total: Number(page.meta.total) + grown * Number(page.meta.per_page),
        last_page: Number(page.meta.last_page) + grown,
      });
    }),
    options: { perPage: 5 },
    outcome: new RegExp(`the comments kept changing during 3 crawls.*${url}`),
  },
  // More of our own.
  {
    name: "JSON sent as application/xml",
    answer: async (a) => a.res.writeHead(200, { "content-type": "application/xml" }).end((await a.upstream()).text),
    outcome: reason('expected JSON but the response is "application/xml"'),
  },
  {
    name: "a content type that carries an ESC",
    answer: async (a) =>
      raw(
        a.res,
        `HTTP/1.1 200 OK\r\nContent-Type: text/\u001b]0;PWNED\u0007html\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi`,
      ),
    options: prompt,
    outcome: reason("(expected JSON|connection failed)"),
  },
  {
    name: "UTF-16 JSON labelled charset=utf-16",
    answer: async (a) =>
      json(a.res, Buffer.from(`\ufeff${(await a.upstream()).text}`, "utf16le"), 200, {
        "content-type": "application/json; charset=utf-16",
      }),
    outcome: reason("not valid JSON"),
  },
  {
    name: "Latin-1 bytes (invalid UTF-8) in a name",
    answer: async (a) =>
      json(
        a.res,
        Buffer.from((await a.upstream()).text.replace(/"name":"/, '"name":"Zo\u00eb \u0085\u0080 '), "latin1"),
      ),
    outcome: "ok",
  },
  {
    name: "64 KiB of response headers",
    answer: async (a) =>
      a.res
        .writeHead(200, { "content-type": "application/json", "x-padding": "x".repeat(64 * 1024) })
        .end((await a.upstream()).text),
    options: prompt,
    outcome: reason("(connection failed|did not answer)"),
  },
  {
    name: "Retry-After of 99,999,999,999 seconds",
    answer: (a) => json(a.res, '{"message":"Too Many Attempts."}', 429, { "retry-after": "99999999999" }),
    options: { rateLimitWait: 60_000 },
    outcome: reason("rate limit asks to wait 99999999999 s \\(Retry-After\\), more than"),
  },
  {
    name: "Retry-After that is not a number",
    answer: (a) => json(a.res, "{}", 429, { "retry-after": "soon, NaN" }),
    options: { rateLimitWait: 5_000 },
    outcome: reason("rate limit asks to wait"),
  },
  {
    name: "negative and NaN-like numbers in meta",
    answer: spoil((page) => void Object.assign(page.meta, { total: -1, per_page: "NaN", current_page: null })),
    outcome: reason("does not match the comments API contract"),
  },
  {
    name: "numbers as decimal strings (Laravel 8)",
    answer: spoil(
      (page) =>
        void Object.assign(
          page.meta,
          Object.fromEntries(Object.entries(page.meta).map(([k, v]) => [k, typeof v === "number" ? String(v) : v])),
        ),
    ),
    outcome: "ok",
  },
  {
    name: 'a number as "1e3"',
    answer: spoil((page) => void (page.meta.total = "1e3")),
    outcome: reason("does not match the comments API contract"),
  },
  {
    name: "null for data",
    answer: spoil((page) => void (page.data = null as never)),
    outcome: reason("does not match the comments API contract"),
  },
  {
    name: "null for a name and an unknown status",
    answer: spoil((page) => void Object.assign(page.data[0]!, { name: null, status: "spam\u001b[31m" })),
    outcome: reason("does not match the comments API contract"),
  },
  {
    name: "a created_at with NUL and a date that does not exist",
    answer: spoil((page) => {
      page.data[0]!.created_at = "2024-01-01T00:00:00.000000Z\u0000";
      if (page.data[1]) page.data[1].created_at = "2024-02-31T25:61:00.000000Z";
    }),
    outcome: reason("does not match the comments API contract"),
  },
  {
    name: "extra fields everywhere",
    answer: spoil((page) => ({
      ...page,
      debug: { sql: "select *" },
      meta: { ...page.meta, extra: 1 },
      data: page.data.map((c) => ({ ...c, ip: "10.0.0.1", "\u001b]0;x\u0007": 1 })),
    })),
    outcome: "ok",
  },
  {
    name: "an unknown key holding an ESC in a contract error",
    answer: spoil((page) => void ((page.meta["\u001b]0;PWNED\u0007"] = null), (page.meta.total = "x"))),
    outcome: reason("does not match the comments API contract"),
  },
  {
    name: "HTTP 200 with an error body",
    answer: (a) => json(a.res, '{"message":"Server Error\\u001b]0;PWNED\\u0007\\n  at Illuminate\\\\Foundation"}'),
    outcome: reason("does not match the comments API contract"),
  },
  {
    name: "an empty 200",
    answer: (a) => json(a.res, ""),
    outcome: reason('not valid JSON \\(Unexpected end of JSON input; starts ""\\)'),
  },
  { name: "a 204 No Content", answer: (a) => a.res.writeHead(204).end(), outcome: reason("not valid JSON") },
  {
    name: "a body shorter than its Content-Length",
    answer: async (a) =>
      raw(
        a.res,
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n${(await a.upstream()).text.slice(0, 500)}`,
      ),
    options: prompt,
    outcome: reason("the connection failed in the middle of the response body"),
  },
  {
    name: "slowloris headers",
    answer: (a) => {
      a.res.socket!.write("HTTP/1.1 200 OK\r\n");
      const timer = setInterval(() => a.res.socket!.write("X-A: b\r\n"), 20);
      a.res.socket!.once("close", () => clearInterval(timer));
    },
    options: short,
    outcome: reason("no response headers within"),
  },
  {
    name: "a 500 with an HTML stack trace and control bytes",
    answer: (a) =>
      a.res
        .writeHead(500, { "content-type": "text/html" })
        .end(`<pre>PDOException ${HOSTILE_TEXT}\n  at /var/www/app.php:3</pre>`),
    options: { retries: 1 },
    outcome: reason("the comments API kept failing"),
  },
  {
    name: "a 422 whose messages carry control bytes",
    answer: (a) => json(a.res, JSON.stringify({ message: "invalid", errors: { domain: [`bad${HOSTILE_TEXT}`] } }), 422),
    outcome: reason(String.raw`refused the request \("domain: bad\\x00\\x08\\x1b\]0;PWNED`),
  },
  {
    name: "a 422 for per_page that quotes a terminal command",
    answer: (a) =>
      json(
        a.res,
        JSON.stringify({ message: "invalid", errors: { per_page: [`must be less\u001b]0;PWNED\u0007`] } }),
        422,
      ),
    options: { perPage: 20 },
    outcome: reason(String.raw`refused per_page=20 \("must be less\\x1b\]0;PWNED\\x07"\)`),
  },
  {
    name: "a status line with an ESC in its reason phrase",
    answer: (a) =>
      raw(a.res, "HTTP/1.1 418 I\u001b]0;PWNED\u0007 am a teapot\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
    options: prompt,
    outcome: reason("(refused the request|connection failed)"),
  },
  {
    name: "an error page that echoes the Authorization header where the excerpt is cut",
    answer: (a) =>
      a.res
        .writeHead(200, { "content-type": "text/html" })
        .end(`<p>${"-".repeat(38)} ${a.req.headers.authorization}</p>`),
    outcome: reason(String.raw`expected JSON but the response is "text/html" \(starts "<p>-+ Bearer \[token\]</p>"\)`),
  },
  {
    name: "a connection closed before any answer",
    answer: (a) => a.res.socket!.destroy(),
    options: prompt,
    outcome: reason("the connection failed before the response"),
  },
];

function site(options: CommentsOptions = {}): SiteHandoff {
  const env = { COMMENTS_DOMAIN: DOMAIN, COMMENTS_API_URL: api.url, COMMENTS_API_TOKEN: TOKEN };
  return { options: resolveOptions({ perPage: 20, timeout: 30_000, ...options }, env), command: "build" };
}

async function sync(context: Parameters<typeof syncComments>[0], state: SiteHandoff): Promise<Error | undefined> {
  const clock = recordingSleep();
  try {
    await syncComments(context, state, { sleep: clock.sleep, now: clock.now, random: () => 0.5 });
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

/** A sync whose client deadlines, for a case that asks, start once the headers are in. */
async function syncWithClock(
  context: Parameters<typeof syncComments>[0],
  state: SiteHandoff,
  afterHeaders: true | undefined,
): Promise<Error | undefined> {
  if (!afterHeaders) return sync(context, state);
  const clock = deadlineAfterHeaders(api.url, state.options.timeout);
  try {
    return await sync(context, state);
  } finally {
    clock.restore();
  }
}

/** The HTML and JSON-LD a page of each stored entry would show. */
function pagesOutput(pages: Map<string, PageCommentsData>): string {
  const view = {
    formatDate: (iso: string) => iso,
    messages: { replies: "Replies to {author}", permalink: "{date} by {author}" },
  };
  return [...pages.values()]
    .map(
      (data) =>
        commentItemsHtml(data.comments, view) +
        serializeJsonLd(
          commentsJsonLd({ comments: data.comments, count: data.count, pageUrl: "https://example.com/p" }),
        ),
    )
    .join("\n");
}

function expectCleanLines(lines: readonly string[]) {
  for (const line of lines) {
    expect(line, line).not.toMatch(CONTROL);
    // Not even its start: an excerpt cut inside the token would show that much of it.
    expect(line).not.toContain(TOKEN.slice(0, 10));
    expect(line).not.toMatch(/\n|\s+at \S+ \(|node:internal/);
  }
}

describe("hostile answers, each after a good build", () => {
  it.each(cases)("$name", async ({ answer: hostile, outcome, options, deadlineAfterHeaders: afterHeaders }) => {
    const { context, lines } = loaderContext();
    answer = undefined;
    expect(await sync(context, site())).toBeUndefined();
    const goodLines = lines.length;

    answer = hostile;
    answered = 0;
    const state = site(options);
    const error = await syncWithClock(context, state, afterHeaders);
    answer = undefined;
    const log = lines.slice(goodLines);
    expectCleanLines(log);
    expect(error, error?.stack).toBeUndefined();
    const output = pagesOutput(await storedComments(context));
    expect(output.length).toBeGreaterThan(1000);
    expect(output).not.toMatch(NOT_HTML);
    expect(output).not.toContain(TOKEN);
    if (outcome === "ok") {
      expect(state.status, state.status?.error).toMatchObject({ stale: false });
      expect(log.filter((line) => line.startsWith("WARN"))).toEqual([]);
    } else {
      expect(state.status).toMatchObject({ stale: true });
      const warnings = log.filter((line) => line.startsWith("WARN showing the comments as of"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(outcome);
      expect(state.status!.error).not.toMatch(CONTROL);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(tokenSeenElsewhere).toEqual([]);
  });
});

describe("hostile answers with no earlier fetch to fall back on", () => {
  // The build fails: the error's first line names what failed, the URL and what to do, with no trace.
  it.each(cases.filter((c) => c.outcome !== "ok"))("$name", async (hostileCase) => {
    const { answer: hostile, outcome, options, deadlineAfterHeaders: afterHeaders } = hostileCase;
    const { context, lines } = loaderContext();
    answer = hostile;
    answered = 0;
    const error = await syncWithClock(context, site(options), afterHeaders);
    answer = undefined;
    expectCleanLines(lines);
    expect(error, lines.join("\n")).toBeInstanceOf(CommentsApiError);
    expect(error!.stack).toBe("");
    const [first, ...rest] = error!.message.split("\n");
    expect(rest).toEqual([]);
    expect(first).toMatch(outcome as RegExp);
    expect(first).not.toMatch(CONTROL);
    expect(first).not.toContain(TOKEN);
    expect(`${(error as CommentsApiError).hint}`).not.toMatch(CONTROL);
    expect(tokenSeenElsewhere).toEqual([]);
  });
});

describe("the check's line on hostile answers", () => {
  // A deployed state with no comments: the crawl's answer decides, and here it cannot be had.
  const stateFile = join(mkdtempSync(join(tmpdir(), "ac-hostile-state-")), "state.json");
  writeFileSync(
    stateFile,
    JSON.stringify({
      format: 1,
      generator: "astro-comments",
      domain: DOMAIN,
      crawledAt: "2026-11-20T08:00:00.000Z",
      complete: true,
      comments: 0,
      digest: "0".repeat(64),
      pages: {},
    }),
  );

  it.each(cases.filter((c) => c.outcome !== "ok"))("$name", async ({ answer: hostile, options }) => {
    const printed: string[] = [];
    const logged: string[] = [];
    answer = hostile;
    answered = 0;
    const flags = [
      "--state",
      stateFile,
      "--verbose",
      "--retries",
      "0",
      "--timeout",
      String(options?.timeout ?? 30_000),
      "--give-up-after",
      "5000",
      "--rate-limit-wait",
      String(options?.rateLimitWait ?? 5_000),
    ];
    if (options?.perPage) flags.push("--per-page", String(options.perPage));
    const code = await check(flags, {
      env: { COMMENTS_DOMAIN: DOMAIN, COMMENTS_API_URL: api.url, COMMENTS_API_TOKEN: TOKEN },
      cwd: tmpdir(),
      print: (line) => printed.push(line),
      log: (line) => logged.push(line),
    });
    answer = undefined;
    expect(code).toBe(1);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(/^astro-comments: cannot tell whether the comments changed: .*; build\.$/);
    expect(printed[0]).toContain(`${api.url}/api/comments`);
    expectCleanLines([...printed, ...logged]);
    expect(tokenSeenElsewhere).toEqual([]);
  });
});

describe("real builds of the example site against hostile answers", () => {
  const byName = (name: string) => cases.find((c) => c.name.startsWith(name))!;
  const sites: SiteCopy[] = [];
  afterAll(() => sites.forEach((site) => site.remove()));

  /** `astro build`, its log kept raw: Astro's own colours are the only escape sequences allowed in it. */
  function build(site: SiteCopy): Promise<{ code: number; log: string; out: string }> {
    const out = join(mkdtempSync(join(tmpdir(), "ac-hostile-build-")), "dist");
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [astroBin, "build", "--outDir", out], {
        cwd: site.dir,
        env: {
          ...process.env,
          ASTRO_TELEMETRY_DISABLED: "1",
          NO_COLOR: "1",
          COMMENTS_DOMAIN: DOMAIN,
          COMMENTS_API_URL: api.url,
          COMMENTS_API_TOKEN: TOKEN,
        },
      });
      let log = "";
      child.stdout.on("data", (chunk: Buffer) => (log += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (log += chunk.toString()));
      child.once("error", reject);
      child.once("exit", (code) => resolve({ code: code ?? 1, log, out }));
    });
  }

  /** A build while the proxy gives the named answer, and the plain mock again after it. */
  async function buildAnswering(site: SiteCopy, name: string): Promise<{ code: number; log: string; out: string }> {
    answer = byName(name).answer;
    try {
      return await build(site);
    } finally {
      answer = undefined;
    }
  }

  function expectCleanLog(log: string) {
    const lines = log.replace(/\x1b\[[0-9;]*m/g, "").split("\n");
    expectCleanLines(lines.map((line) => line.replace(/\r$/, "")));
    expect(log).not.toMatch(/^\s+at /m);
  }

  function expectCleanOutput(out: string) {
    for (const file of listFiles(out).filter((path) => /\.(html|xml|json)$/.test(path))) {
      const text = readFileSync(file, "utf8");
      expect(text, file).not.toMatch(NOT_HTML);
      expect(text, file).not.toContain(TOKEN);
    }
  }

  it("NUL, terminal commands and bidi overrides in every name and body: the build succeeds, and none reaches the HTML", async () => {
    const site = copySite("hostile-names");
    sites.push(site);
    const result = await buildAnswering(site, "control bytes, bidi overrides and NUL inside");
    expect(result.code, result.log).toBe(0);
    expectCleanLog(result.log);
    expectCleanOutput(result.out);
    const html = listFiles(result.out)
      .filter((path) => path.endsWith(".html"))
      .map((path) => readFileSync(path, "utf8"))
      .join("\n");
    expect(html).toContain("data-comment-author>Ann]0;PWNED[2J");

    // The next build of the same site meets a redirect to another host: it keeps these comments and says where to point apiUrl.
    const redirected = await buildAnswering(site, "a 301 to another host");
    expect(redirected.code, redirected.log).toBe(0);
    expectCleanLog(redirected.log);
    expectCleanOutput(redirected.out);
    expect(redirected.log).toMatch(
      /WARN.*showing the comments as of .* because the fetch failed: the comments API redirected the request to "http:\/\/127\.0\.0\.1:\d+\/api\/comments\?token=\[token\]".*Set COMMENTS_API_URL \(or the apiUrl option\) to the final address/,
    );
    expect(tokenSeenElsewhere).toEqual([]);
  }, 600_000);

  it("a PHP notice before the JSON with nothing to fall back on: the build fails with the URL and what to do on one line", async () => {
    const site = copySite("hostile-php");
    sites.push(site);
    const result = await buildAnswering(site, "a PHP notice");
    expect(result.code).not.toBe(0);
    expectCleanLog(result.log);
    expect(result.log).toMatch(
      new RegExp(
        `the response is not valid JSON \\(Unexpected token '<'; starts "<br />\\\\n<b>Deprecated</b>.*${url}.*There is no earlier fetch to fall back on`,
      ),
    );
  }, 600_000);
});

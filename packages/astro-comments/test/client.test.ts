// The HTTP client against the mock (real sockets, Prism-validated answers) and against servers
// that misbehave on purpose.
import { startMockServer, type MockServer } from "@astro-comments/mock-server";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createCommentsClient, type CommentsClientOptions } from "../src/api/http-client.ts";
import { fetchTransport } from "../src/api/transport.ts";
import { undiciTransport } from "../src/api/undici-transport.ts";
import { CommentsApiError } from "../src/errors.ts";
import { deadlineAfterHeaders } from "./helpers/deadline-clock.ts";
import { recordingSleep, serve, virtualClock } from "./helpers/servers.ts";

const TOKEN = "tok-SECRET-4242";
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ token: TOKEN, dataset: { seed: 3, size: 300 } });
});
afterAll(() => mock.close());

async function failure(promise: Promise<unknown>): Promise<CommentsApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(CommentsApiError);
    const apiError = error as CommentsApiError;
    expect(`${apiError.message} ${apiError.hint}`).not.toContain(TOKEN);
    return apiError;
  }
  throw new Error("expected the request to fail");
}

// Both wires: fetch() (the live loader, the island) and undici's pool (the build's crawl, the check).
describe.each([
  ["fetch()", fetchTransport],
  ["undici", undiciTransport],
])("the client sending with %s", (_name, transport) => {
  function client(overrides: Partial<CommentsClientOptions> & { base?: string } = {}) {
    const sleeper = recordingSleep();
    const c = createCommentsClient({
      endpoint: new URL("/api/comments", overrides.base ?? mock.url),
      token: TOKEN,
      domain: "example.com",
      // Far above any answer that comes at once, on any machine: a test that wants a deadline to end
      // a hang sets its own.
      timeoutMs: 30_000,
      connections: 4,
      maxResponseBytes: 5_000_000,
      random: () => 0.5,
      sleep: sleeper.sleep,
      now: sleeper.now,
      transport,
      ...overrides,
    });
    return { c, waits: sleeper.waits };
  }

  describe("against the mock", () => {
    it("fetches a page that validates", async () => {
      const { c } = client();
      const page = await c.fetchPage(1, 10);
      expect(page.body.data).toHaveLength(10);
      expect(page.url).toBe(`${mock.url}/api/comments?domain=example.com&per_page=10&page=1`);
      await c.close();
    });

    it("fails fast on a wrong token with the URL, the status and what to do", async () => {
      const { c, waits } = client({ token: "wrong" });
      const error = await failure(c.fetchPage(1, 10));
      expect(error).toMatchObject({ status: 401, failure: "unauthorized", attempts: 1 });
      expect(error.message).toBe(
        `astro-comments: the comments API rejected the API token (${mock.url}/api/comments?domain=example.com&per_page=10&page=1, HTTP 401). ${error.action}`,
      );
      expect(error.action).toMatch(/^Check COMMENTS_API_TOKEN/);
      expect(waits).toEqual([]);
      await c.close();
    });

    it("fails fast on a domain outside the account (403) and on a rejected query (422)", async () => {
      const { c } = client({ domain: "nope.example" });
      expect(await failure(c.fetchPage(1, 10))).toMatchObject({ status: 403, failure: "forbidden" });
      const { c: c2 } = client();
      const invalid = await failure(c2.fetchPage(1, 0));
      expect(invalid).toMatchObject({ status: 422, failure: "invalid-request" });
      expect(invalid.message).toContain('refused per_page=0 ("The per page field must be at least 1.")');
      await Promise.all([c.close(), c2.close()]);
    });

    it("retries 5xx and dropped connections with backoff", async () => {
      const flaky = await startMockServer({
        token: TOKEN,
        dataset: { seed: 3, size: 300 },
        faults: { seed: 9, errorRate: 0.5, dropRate: 0.3, maxConsecutiveFaults: 3 },
      });
      const { c, waits } = client({ base: flaky.url });
      for (let page = 1; page <= 6; page++) expect((await c.fetchPage(page, 10)).body.meta.current_page).toBe(page);
      expect(c.retries).toBeGreaterThan(0);
      expect(waits.length).toBe(c.retries);
      await c.close();
      await flaky.close();
    });

    it("pauses every request on a 429 until Retry-After has passed, then fetches the rest", async () => {
      // 2 requests per 1.5 s, 5 pages asked at once. The mock's windows and the client's waits share a
      // virtual clock: a window ends when the client waits it out, never because the machine is slow.
      const clock = virtualClock();
      const limited = await startMockServer({
        token: TOKEN,
        dataset: { size: 50 },
        faults: { rateLimit: { limit: 2, windowMs: 1_500, now: clock.now } },
      });
      const pauses: number[] = [];
      const c = createCommentsClient({
        endpoint: new URL("/api/comments", limited.url),
        token: TOKEN,
        domain: "example.com",
        timeoutMs: 30_000,
        connections: 5,
        maxResponseBytes: 5_000_000,
        rateLimitBudget: { limitMs: 60_000, waitedMs: 0, onPause: (pause) => pauses.push(pause.waitMs) },
        now: clock.now,
        sleep: clock.sleep,
        random: () => 0.5,
        transport,
      });
      const pages = await Promise.all([1, 2, 3, 4, 5].map((page) => c.fetchPage(page, 5)));
      expect(pages.map((page) => page.body.meta.current_page)).toEqual([1, 2, 3, 4, 5]);
      // Three periods' worth of requests: two pauses, each the Retry-After (at most 2 s) plus jitter.
      expect(pauses.length).toBe(2);
      expect(pauses.every((ms) => ms <= 2_250)).toBe(true);
      // Refused requests are the ones in flight when a period ran out, never a fresh one sent into a pause.
      expect(c.rateLimited).toBeLessThanOrEqual(2 * 3);
      await c.close();
      await limited.close();
    });

    it("gives up on a server that is down after a bounded number of attempts", async () => {
      const down = await serve(() => undefined);
      const base = down.url;
      await down.close();
      const { c, waits } = client({ base, retryPolicy: { retries: 3 } });
      const error = await failure(c.fetchPage(1, 10));
      expect(error).toMatchObject({ failure: "network", attempts: 4 });
      expect(error.message).toMatch(
        /^astro-comments: the comments API did not answer: the connection failed before the response: connect ECONNREFUSED .*; gave up after 4 attempts over .* Check COMMENTS_API_URL/,
      );
      expect(waits).toEqual([600, 1200, 2400]);
      await c.close();
    });
  });

  describe("against misbehaving servers", () => {
    const page = JSON.stringify({
      data: [],
      links: { first: "http://x/?page=1", last: "http://x/?page=1", prev: null, next: null },
      meta: { current_page: 1, from: null, last_page: 1, per_page: 10, to: null, total: 0 },
    });
    const cases: Array<[string, (res: import("node:http").ServerResponse) => void, RegExp]> = [
      [
        "malformed JSON",
        (res) => res.writeHead(200, { "content-type": "application/json" }).end('{"data": [,'),
        /not valid JSON/,
      ],
      [
        "an HTML page with status 200",
        (res) => res.writeHead(200, { "content-type": "text/html" }).end("<!DOCTYPE html><title>Maintenance</title>"),
        /expected JSON but the response is "text\/html" \(starts "<!DOCTYPE html>/,
      ],
      [
        "a body that breaks the contract",
        (res) =>
          res.writeHead(200, { "content-type": "application/json" }).end(page.replace('"total":0', '"total":"zero"')),
        /does not match the comments API contract \(\/meta\/total must be integer\)/,
      ],
      [
        "a reply carrying children",
        (res) =>
          res
            .writeHead(200, { "content-type": "application/json" })
            .end(
              page.replace(
                '"data":[]',
                '"data":[{"created_at":"2024-01-01T00:00:00.000000Z","content":"","html":"","status":"approved","name":"","path":"/","children":[{"created_at":"2024-01-01T00:00:00.000000Z","content":"","html":"","status":"approved","name":"","path":"/","children":[]}]}]',
              ),
            ),
        /\/data\/0\/children\/0\/children boolean schema is false/,
      ],
      [
        "a huge page",
        (res) => res.writeHead(200, { "content-type": "application/json" }).end(" ".repeat(6_000_000)),
        /larger than 5000000 bytes/,
      ],
      [
        // 10 MB of spaces in 10 KB on the wire. fetch() decompresses, and the limit counts what it
        // decoded; undici's request() never decompresses, so the JSON parser meets gzip bytes.
        "a gzip bomb",
        (res) =>
          res
            .writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" })
            .end(gzipSync(" ".repeat(10_000_000))),
        transport === fetchTransport ? /larger than 5000000 bytes/ : /not valid JSON \(Unexpected token '\\x1f'/,
      ],
      [
        "a redirect",
        (res) => res.writeHead(302, { location: "http://127.0.0.1:9/api/comments" }).end(),
        /redirected the request to "http:\/\/127\.0\.0\.1:9\/api\/comments", and redirects are not followed/,
      ],
    ];
    it.each(cases)("names the problem for %s", async (_, respond, message) => {
      const requests: string[] = [];
      const server = await serve((req, res) => {
        requests.push(String(req.headers.authorization));
        respond(res);
      });
      const { c } = client({ base: server.url });
      const error = await failure(c.fetchPage(1, 10));
      expect(error.message).toMatch(message);
      // One request, never repeated: none of these is worth a retry.
      expect(requests).toEqual([`Bearer ${TOKEN}`]);
      expect(error.message).toContain(`${server.url}/api/comments?domain=example.com`);
      await c.close();
      await server.close();
    });

    it("accepts unknown extra fields from the service", async () => {
      const server = await serve((_req, res) =>
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(page.replace('"data":[]', '"data":[],"extra":{"x":1}')),
      );
      const { c } = client({ base: server.url });
      expect((await c.fetchPage(1, 10)).body).not.toHaveProperty("extra");
      await c.close();
      await server.close();
    });

    it("times out a server that never answers, retries, then fails naming the timeout", async () => {
      const server = await serve(() => undefined);
      const { c } = client({ base: server.url, timeoutMs: 200, retryPolicy: { retries: 1 } });
      const error = await failure(c.fetchPage(1, 10));
      expect(error).toMatchObject({ failure: "timeout", attempts: 2 });
      expect(error.message).toContain("no response headers within 0.2 s");
      expect(error.action).toMatch(/timeout option/);
      await c.close();
      await server.close();
    });

    it("never sends the token anywhere but the Authorization header", async () => {
      const seen: string[] = [];
      const server = await serve((req, res) => {
        seen.push(`${req.url} ${JSON.stringify({ ...req.headers, authorization: undefined })}`);
        expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
        expect(req.headers.accept).toBe("application/json");
        res.writeHead(200, { "content-type": "application/json" }).end(page);
      });
      const { c } = client({ base: server.url });
      await c.fetchPage(1, 10);
      expect(seen.join("\n")).not.toContain(TOKEN);
      await c.close();
      await server.close();
    });

    it("reads meta numbers that a Laravel 8 service sends as decimal strings", async () => {
      const server = await serve((_req, res) =>
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(page.replace('"per_page":10', '"per_page":"10"')),
      );
      const { c } = client({ base: server.url });
      expect((await c.fetchPage(1, 10)).body.meta.per_page).toBe(10);
      await c.close();
      await server.close();
    });

    it("names the service's per_page limit when it rejects the page size (422)", async () => {
      const body = JSON.stringify({
        message: "The given data was invalid.",
        errors: { per_page: ["The per page may not be greater than 100."] },
      });
      const server = await serve((_req, res) => res.writeHead(422, { "content-type": "application/json" }).end(body));
      const { c, waits } = client({ base: server.url });
      const error = await failure(c.fetchPage(1, 1000));
      expect(error).toMatchObject({ status: 422, failure: "invalid-request", attempts: 1 });
      expect(error.message).toContain('refused per_page=1000 ("The per page may not be greater than 100.")');
      expect(error.action).toBe("Set the perPage option to 100 or less.");
      expect(waits).toEqual([]);
      await c.close();
      await server.close();
    });

    it("spreads retries of a 5xx storm over 10 to 20 seconds, then says the service kept failing", async () => {
      const server = await serve((_req, res) =>
        res.writeHead(503, { "content-type": "application/json" }).end('{"message":"Service Unavailable"}'),
      );
      for (const random of [() => 0, () => 0.9999]) {
        const { c, waits } = client({ base: server.url, random, retryPolicy: {} });
        const error = await failure(c.fetchPage(1, 10));
        expect(error).toMatchObject({ status: 503, failure: "server-error", attempts: 6 });
        const total = waits.reduce((a, b) => a + b, 0);
        expect(total).toBeGreaterThanOrEqual(10_000);
        expect(total).toBeLessThanOrEqual(20_000);
        await c.close();
      }
      await server.close();
    });

    it("fails at once when Retry-After asks for longer than the crawl's rateLimitWait allows, naming the limit", async () => {
      const server = await serve((_req, res) =>
        res
          .writeHead(429, {
            "content-type": "application/json",
            "x-ratelimit-limit": "60",
            "x-ratelimit-remaining": "0",
            "retry-after": "3600",
          })
          .end('{"message":"Too Many Attempts."}'),
      );
      const { c, waits } = client({
        base: server.url,
        describeNeed: () => "this site needs 87 pages of 100 comments, 0 fetched so far",
      });
      const error = await failure(c.fetchPage(1, 10));
      expect(error).toMatchObject({ status: 429, failure: "rate-limited", attempts: 1 });
      expect(error.message).toContain(
        "the comments service's rate limit (60 requests an hour) asks to wait 3600 s (Retry-After), more than the 600 s left of rateLimitWait (600 s); this site needs 87 pages of 100 comments",
      );
      expect(error.message).toContain("Raise the rateLimitWait option to at least 3660000");
      expect(waits).toEqual([]);
      await c.close();
      await server.close();
    });

    it("gives up on a hung API within its time budget, saying no headers came", async () => {
      const server = await serve(() => undefined);
      const { c } = client({ base: server.url, timeoutMs: 300, retryPolicy: { retries: 10, giveUpAfterMs: 1_000 } });
      const error = await failure(c.fetchPage(1, 10));
      expect(error.failure).toBe("timeout");
      expect(error.message).toMatch(/no response headers within 0\.3 s; gave up after \d attempts? over/);
      // Budget 1 s of real and recorded time together; the clock here counts both. Without the
      // budget it would make 11 attempts; a slower machine makes fewer, never more.
      expect(error.attempts).toBeLessThanOrEqual(4);
      await c.close();
      await server.close();
    });

    it("ends a trickling body at the attempt's deadline and says the body was still arriving", async () => {
      const server = await serve((_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"data":[');
        const timer = setInterval(() => res.write(" "), 20);
        res.once("close", () => clearInterval(timer));
      });
      // The deadline's clock starts once the headers are in: a busy machine that is slow to deliver
      // them cannot turn "still arriving" into "no headers".
      const clock = deadlineAfterHeaders(server.url, 300);
      try {
        const { c } = client({ base: server.url, timeoutMs: 300, retryPolicy: { retries: 0 } });
        const error = await failure(c.fetchPage(1, 10));
        expect(error.failure).toBe("timeout");
        expect(error.message).toMatch(
          /the response body was still arriving after 0\.3 s \(\d+ bytes received; the API is stalled or trickling\)/,
        );
        await c.close();
      } finally {
        clock.restore();
        await server.close();
      }
    });
  });
});

describe("a runtime that cannot send", () => {
  const options = {
    endpoint: new URL("http://127.0.0.1:9/api/comments"),
    token: TOKEN,
    domain: "example.com",
    timeoutMs: 2_000,
    connections: 1,
    maxResponseBytes: 5_000_000,
    sleep: async () => undefined,
  };

  // What undici does on Cloudflare Workers, where no WebAssembly may be compiled at run time.
  it("names the WebAssembly refusal, not the network, and does not retry", async () => {
    let attempts = 0;
    const c = createCommentsClient({
      ...options,
      transport: () => ({
        get: async () => {
          attempts++;
          throw new TypeError("fetch failed", {
            cause: new Error("WebAssembly.Module(): Wasm code generation disallowed by embedder"),
          });
        },
        close: async () => undefined,
      }),
    });
    const error = await failure(c.fetchPage(1, 10));
    expect(error.failure).toBe("runtime");
    expect(attempts).toBe(1);
    expect(error.message).toMatch(
      /^astro-comments: this runtime cannot send requests to the comments API: it forbids compiling WebAssembly at run time/,
    );
    expect(error.message).not.toContain("Check COMMENTS_API_URL");
    expect(error.action).toContain("send with the platform's fetch(), as the live loader and the server island do");
  });

  it("names a missing global fetch()", async () => {
    vi.stubGlobal("fetch", undefined);
    try {
      const error = await failure(createCommentsClient(options).fetchPage(1, 10));
      expect(error.failure).toBe("runtime");
      expect(error.message).toContain(
        "this runtime cannot send requests to the comments API: it has no global fetch()",
      );
      expect(error.action).toContain("run it where fetch() is global");
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("an answer that arrives a byte at a time", () => {
  // Bytes arrive in chunks of any size: a character cut between two of them must come out whole.
  it("reads characters cut between chunks whole, after a byte order mark", async () => {
    let served: unknown;
    const options = {
      endpoint: new URL("/api/comments", mock.url),
      token: TOKEN,
      domain: "example.com",
      timeoutMs: 30_000,
      connections: 1,
      maxResponseBytes: 5_000_000,
    };
    await createCommentsClient({ ...options, onBody: (_url, body) => (served = body) }).fetchPage(1, 10);
    const page = served as { data: { content: string; name: string }[] };
    page.data[0]!.content = "<p>Grüße, 日本語, 👋🏽 and עברית</p>";
    page.data[0]!.name = "Zoë 🦊";
    const bytes = new TextEncoder().encode(`\ufeff${JSON.stringify(page)}`);
    const c = createCommentsClient({
      ...options,
      transport: () => ({
        get: async () => ({
          status: 200,
          headers: { "content-type": "application/json" },
          body: (async function* () {
            for (const byte of bytes) yield Uint8Array.of(byte);
          })(),
        }),
        close: async () => undefined,
      }),
    });
    const { body } = await c.fetchPage(1, 10);
    expect(body).toEqual(page);
    expect(body.data[0]!.content).toBe("<p>Grüße, 日本語, 👋🏽 and עברית</p>");
  });
});

// A build that reuses a check's crawl, `astro sync` and `astro preview` send no request, so the
// integration must not make them load undici (about 110 modules); the first crawl loads it.
it("loads undici when a crawl makes its wire, not with the integration", async () => {
  const script = `
    import { createRequire } from "node:module";
    const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes("/node_modules/undici/"));
    await import(${JSON.stringify(new URL("../src/index.ts", import.meta.url).href)});
    const withIntegration = loaded();
    const { undiciTransport } = await import(${JSON.stringify(new URL("../src/api/undici-transport.ts", import.meta.url).href)});
    await undiciTransport({ connections: 1, timeoutMs: 1000 }).close();
    console.log(JSON.stringify({ withIntegration, withWire: loaded() }));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script]);
  expect(JSON.parse(stdout)).toEqual({ withIntegration: false, withWire: true });
});

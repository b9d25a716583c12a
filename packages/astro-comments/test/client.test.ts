// The HTTP client against the mock (real sockets, Prism-validated answers) and against servers
// that misbehave on purpose.
import { startMockServer, type MockServer } from "@astro-comments/mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCommentsClient, type CommentsClientOptions } from "../src/api/http-client.ts";
import { CommentsApiError } from "../src/errors.ts";
import { recordingSleep, serve } from "./helpers/servers.ts";

const TOKEN = "tok-SECRET-4242";
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ token: TOKEN, dataset: { seed: 3, size: 300 } });
});
afterAll(() => mock.close());

function client(overrides: Partial<CommentsClientOptions> & { base?: string } = {}) {
  const sleeper = recordingSleep();
  const c = createCommentsClient({
    endpoint: new URL("/api/comments", overrides.base ?? mock.url),
    token: TOKEN, domain: "example.com", timeoutMs: 2_000, connections: 4, maxResponseBytes: 5_000_000,
    random: () => 0.5, sleep: sleeper.sleep, ...overrides,
  });
  return { c, waits: sleeper.waits };
}

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
    expect(error.message).toBe(`astro-comments: the comments API rejected the API token: ${mock.url}/api/comments?domain=example.com&per_page=10&page=1 (HTTP 401)`);
    expect(error.hint).toMatch(/COMMENTS_API_TOKEN/);
    expect(waits).toEqual([]);
    await c.close();
  });

  it("fails fast on a domain outside the account (403) and on a rejected query (422)", async () => {
    const { c } = client({ domain: "nope.example" });
    expect(await failure(c.fetchPage(1, 10))).toMatchObject({ status: 403, failure: "forbidden" });
    const { c: c2 } = client();
    const invalid = await failure(c2.fetchPage(1, 0));
    expect(invalid).toMatchObject({ status: 422, failure: "invalid-request" });
    expect(invalid.message).toContain("per_page: The per page field must be at least 1.");
    await Promise.all([c.close(), c2.close()]);
  });

  it("retries 5xx and dropped connections with backoff, and waits Retry-After on 429", async () => {
    const flaky = await startMockServer({ token: TOKEN, dataset: { seed: 3, size: 300 }, faults: { seed: 9, errorRate: 0.5, dropRate: 0.3, maxConsecutiveFaults: 3 } });
    const { c, waits } = client({ base: flaky.url });
    for (let page = 1; page <= 6; page++) expect((await c.fetchPage(page, 10)).body.meta.current_page).toBe(page);
    expect(c.retries).toBeGreaterThan(0);
    expect(waits.length).toBe(c.retries);
    await c.close();
    await flaky.close();

    const limited = await startMockServer({ token: TOKEN, dataset: { size: 50 }, faults: { rateLimit: { limit: 1, windowMs: 3_000 } } });
    const { c: c2, waits: waits2 } = client({ base: limited.url, random: () => 0 });
    await c2.fetchPage(1, 10);
    // The mock keeps refusing while its window is open, so this client gives up after its waits.
    const error = await failure(c2.fetchPage(1, 10));
    expect(error).toMatchObject({ status: 429, failure: "rate-limited" });
    expect(waits2.length).toBe(10);
    expect(waits2.every((ms) => ms >= 1_000 && ms <= 3_000)).toBe(true);
    await c2.close();
    await limited.close();
  });

  it("gives up on a server that is down after a bounded number of attempts", async () => {
    const down = await serve(() => undefined);
    const base = down.url;
    await down.close();
    const { c, waits } = client({ base, retryPolicy: { retries: 3 } });
    const error = await failure(c.fetchPage(1, 10));
    expect(error).toMatchObject({ failure: "network", attempts: 4 });
    expect(error.message).toMatch(/could not reach the comments API after 4 attempts \(ECONNREFUSED/);
    expect(waits).toEqual([150, 300, 600]);
    await c.close();
  });
});

describe("against misbehaving servers", () => {
  const page = JSON.stringify({ data: [], links: { first: "http://x/?page=1", last: "http://x/?page=1", prev: null, next: null }, meta: { current_page: 1, from: null, last_page: 1, per_page: 10, to: null, total: 0 } });
  const cases: Array<[string, (res: import("node:http").ServerResponse) => void, RegExp]> = [
    ["malformed JSON", (res) => res.writeHead(200, { "content-type": "application/json" }).end('{"data": [,'), /not valid JSON/],
    ["an HTML page with status 200", (res) => res.writeHead(200, { "content-type": "text/html" }).end("<!DOCTYPE html><title>Maintenance</title>"), /expected JSON but the response is text\/html \(starts "<!DOCTYPE html>/],
    ["a body that breaks the contract", (res) => res.writeHead(200, { "content-type": "application/json" }).end(page.replace('"total":0', '"total":"0"')), /does not match the comments API contract \(\/meta\/total must be integer\)/],
    ["a reply carrying children", (res) => res.writeHead(200, { "content-type": "application/json" }).end(page.replace('"data":[]', '"data":[{"created_at":"2024-01-01T00:00:00.000000Z","content":"","html":"","status":"approved","name":"","path":"/","children":[{"created_at":"2024-01-01T00:00:00.000000Z","content":"","html":"","status":"approved","name":"","path":"/","children":[]}]}]')), /\/data\/0\/children\/0\/children boolean schema is false/],
    ["a huge page", (res) => res.writeHead(200, { "content-type": "application/json" }).end(" ".repeat(6_000_000)), /larger than 5000000 bytes/],
  ];
  it.each(cases)("names the problem for %s", async (_, respond, message) => {
    const server = await serve((_req, res) => respond(res));
    const { c } = client({ base: server.url });
    const error = await failure(c.fetchPage(1, 10));
    expect(error.message).toMatch(message);
    expect(error.message).toContain(`${server.url}/api/comments?domain=example.com`);
    await c.close();
    await server.close();
  });

  it("accepts unknown extra fields from the service", async () => {
    const server = await serve((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(page.replace('"data":[]', '"data":[],"extra":{"x":1}')));
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
    expect(error.hint).toMatch(/timeout option/);
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
});

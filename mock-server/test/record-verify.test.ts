// `comments-mock record` and `verify` against a service: the in-process mock stands in for the
// real one (and, behind a rewriting proxy, for a real one that broke the contract). Credentials
// come from .env in the command's folder, as a developer keeps them.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CommentListResponse } from "@astro-comments/schema";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startMockServer, type MockServer } from "../src/index.ts";
import { get, runCli, type CliRun } from "./helpers.ts";
import { windowsEndOnlyWhenFull } from "./limiter-clock.ts";

const TOKEN = "tok-rec-3f9a1c77e2b4";
const DOMAIN = "my-site.test";
const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "comments-mock-record-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function service(options: Parameters<typeof startMockServer>[0] = {}): Promise<MockServer> {
  const mock = await startMockServer({ token: TOKEN, domain: DOMAIN, dataset: { size: 260 }, ...options });
  servers.push(mock);
  return mock;
}

/** A site folder whose .env points at `url`. */
function siteFolder(url: string, token = TOKEN): string {
  const folder = mkdtempSync(join(dir, "site-"));
  writeFileSync(
    join(folder, ".env"),
    `# the site's credentials\nCOMMENTS_API_URL=${url}\nCOMMENTS_DOMAIN=${DOMAIN}\nCOMMENTS_API_TOKEN="${token}"\n`,
  );
  return folder;
}

const noCredentials = { COMMENTS_API_URL: undefined, COMMENTS_DOMAIN: undefined, COMMENTS_API_TOKEN: undefined };
const cli = (folder: string, args: string[], env: Record<string, string | undefined> = {}) =>
  runCli(args, { cwd: folder, env: { ...noCredentials, ...env } });

function expectNoToken(...texts: string[]): void {
  for (const text of texts) expect(text).not.toContain(TOKEN);
}

/** Every page of every query, as bodies with the server's own origin taken out. */
async function responses(mock: MockServer, queries: string[]): Promise<string[]> {
  const bodies: string[] = [];
  for (const query of queries) {
    for (let page = 1; ; page++) {
      const answer = await get(mock.url, `${query}&page=${page}`, mock.token);
      expect(answer.status).toBe(200);
      bodies.push(JSON.stringify(answer.body).split(mock.url).join("<origin>"));
      if (page >= (answer.body as CommentListResponse).meta.last_page) break;
    }
  }
  return bodies;
}

/** A service that answers like `upstream`, with its 200 bodies rewritten: one that broke the contract. */
async function rewritingProxy(
  upstream: MockServer,
  rewrite: (body: CommentListResponse, page: number) => void,
): Promise<string> {
  const server: Server = createServer((req, res) => {
    void (async () => {
      const answer = await fetch(`${upstream.url}${req.url}`, {
        headers: { authorization: req.headers.authorization ?? "", accept: req.headers.accept ?? "" },
      });
      const body = (await answer.json()) as CommentListResponse;
      if (answer.status === 200) rewrite(body, body.meta.current_page);
      res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(body));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push({ close: () => new Promise((resolve) => server.close(() => resolve())) });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("comments-mock record", () => {
  it("saves the service's comments, which --data then serves response for response", async () => {
    const original = await service();
    const folder = siteFolder(original.url);
    const recorded = await cli(folder, ["record", "--out", "fixtures/comments.json"]);
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(recorded.stdout).toMatch(
      new RegExp(
        `^comments-mock record: saved 260 comments and \\d+ replies of ${DOMAIN} from ${original.url}/api/comments to .*fixtures/comments\\.json \\(3 pages, [0-9.]+ s\\)\\. Serve them with: comments-mock --data fixtures/comments\\.json\\n$`,
      ),
    );
    const file = readFileSync(join(folder, "fixtures/comments.json"), "utf8");
    expectNoToken(recorded.stdout, recorded.stderr, file);
    expect(JSON.parse(file)).toMatchObject({
      format: "comments-mock-data",
      version: 1,
      domain: DOMAIN,
      recordedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });

    const replay = await service({ data: join(folder, "fixtures/comments.json"), token: "another-token" });
    const paths = [...new Set(original.store.threads(DOMAIN).map((thread) => thread.path))];
    const queries = [1, 7, 50, 100]
      .map((perPage) => `domain=${DOMAIN}&per_page=${perPage}`)
      .concat(paths.map((path) => `domain=${DOMAIN}&path=${encodeURIComponent(path)}&per_page=5`));
    const [before, after] = [await responses(original, queries), await responses(replay, queries)];
    expect(before.length).toBeGreaterThan(300);
    expect(after).toEqual(before);
  });

  it("gets every comment through rate limits and server errors, with the integration's client", async () => {
    const flaky = await service({
      dataset: { size: 900 },
      // A window ends only once full: the pause the test expects never depends on the machine's speed.
      faults: {
        seed: 3,
        rateLimit: { limit: 2, windowMs: 1_000, now: windowsEndOnlyWhenFull(2, 1_000) },
        errorRate: 0.5,
        maxConsecutiveFaults: 1,
      },
    });
    const folder = siteFolder(flaky.url);
    const recorded = await cli(folder, ["record", "--out", "comments.json"]);
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(recorded.stderr).toMatch(/comments-mock record: retrying .* \(HTTP 50[03]/);
    expect(recorded.stderr).toMatch(
      /comments-mock record: the comments service's rate limit \(2 requests per \d+ s\) was reached after \d+ of 9 pages; waiting \d+ s/,
    );
    expectNoToken(recorded.stdout, recorded.stderr);
    const saved = JSON.parse(readFileSync(join(folder, "comments.json"), "utf8")) as { comments: unknown[] };
    expect(saved.comments).toEqual(flaky.store.threads(DOMAIN));
  });

  it("takes the environment over .env, and names what is missing without the token", async () => {
    const mock = await service();
    const folder = siteFolder(mock.url, "wrong-token-0000");
    const refused = await cli(folder, ["record", "--out", "x.json"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^comments-mock: Cannot record the comments of my-site\.test: the comments API rejected the API token .*HTTP 401\)\. Check COMMENTS_API_TOKEN/,
    );
    const fixed = await cli(folder, ["record", "--out", "x.json"], { COMMENTS_API_TOKEN: TOKEN });
    expect(fixed.code, fixed.stderr).toBe(0);

    const empty = mkdtempSync(join(dir, "empty-"));
    const missing = await cli(empty, ["record", "--out", "x.json"], { COMMENTS_API_TOKEN: TOKEN });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      "comments-mock: Cannot record your site's comments: set COMMENTS_DOMAIN and COMMENTS_API_URL (in the environment or .env). COMMENTS_API_URL is the service's URL, COMMENTS_DOMAIN your site's domain there, COMMENTS_API_TOKEN its API token.\n",
    );
    expectNoToken(refused.stderr, fixed.stdout, fixed.stderr, missing.stderr);
  });
});

describe("comments-mock verify", () => {
  const lines = (run: CliRun) => run.stdout.trimEnd().split("\n");

  it("passes on a service that keeps the contract: one summary line, exit 0", async () => {
    const mock = await service();
    const run = await cli(siteFolder(mock.url), ["verify"]);
    expect(run.code, run.stderr).toBe(0);
    expect(lines(run)).toEqual([
      `comments-mock verify: OK: ${mock.url}/api/comments for ${DOMAIN} conforms to the contract: no differences (3 responses, ${mock.store.threads(DOMAIN).reduce((sum, t) => sum + 1 + t.children.length, 0)} comments checked)`,
    ]);
    expectNoToken(run.stdout, run.stderr);
  });

  it("fails on created_at as a number, naming the page URL and the JSON path", async () => {
    const mock = await service();
    const broken = await rewritingProxy(mock, (body, page) => {
      if (page === 2) (body.data[3] as unknown as { created_at: number }).created_at = 1_700_000_000;
    });
    const run = await cli(siteFolder(broken), ["verify"]);
    expect(run.code, run.stderr).toBe(1);
    const [summary, ...findings] = lines(run);
    expect(summary).toBe(
      `comments-mock verify: FAIL: ${broken}/api/comments for ${DOMAIN} breaks the contract: 1 breaking difference, 0 tolerated (3 responses checked)`,
    );
    expect(findings).toEqual([
      `${broken}/api/comments?domain=${DOMAIN}&per_page=100&page=2 $.data[3].created_at: must be a string, not 1700000000 (breaking: the client refuses this response)`,
    ]);
    expectNoToken(run.stdout, run.stderr);
  });

  it("fails on pagination that does not add up, in the client's words", async () => {
    const mock = await service();
    const broken = await rewritingProxy(mock, (body) =>
      Object.assign(body.meta, { last_page: body.meta.last_page + 1 }),
    );
    const run = await cli(siteFolder(broken), ["verify"]);
    expect(run.code, run.stderr).toBe(1);
    expect(lines(run)).toEqual([
      `comments-mock verify: FAIL: ${broken}/api/comments for ${DOMAIN} breaks the contract: 1 breaking difference, 0 tolerated (1 response checked)`,
      `${broken}/api/comments?domain=${DOMAIN}&per_page=100&page=1 $: meta is inconsistent (total 260, per_page 100, last_page 4) (breaking: the client refuses this response)`,
    ]);
  });

  it("lists fields the contract does not have as tolerated, and fails on them with --strict", async () => {
    const mock = await service();
    const extended = await rewritingProxy(mock, (body) => {
      for (const thread of body.data) Object.assign(thread, { likes: 0 });
      Object.assign(body.meta, { per_page: String(body.meta.per_page) });
    });
    const folder = siteFolder(extended);
    const tolerant = await cli(folder, ["verify"]);
    expect(tolerant.code, tolerant.stderr).toBe(0);
    expect(lines(tolerant)).toEqual([
      expect.stringMatching(
        /^comments-mock verify: OK: .* conforms to the contract: 2 tolerated differences \(run with --strict to fail on them\) \(3 responses, \d+ comments checked\)$/,
      ),
      `${extended}/api/comments?domain=${DOMAIN}&per_page=100&page=1 $.data[0].likes: a field the contract does not have ("likes") (tolerated: the client drops it; 260 times on 3 pages)`,
      `${extended}/api/comments?domain=${DOMAIN}&per_page=100&page=1 $.meta.per_page: a number sent as a string ("100") (tolerated: the client reads it as the number; 3 times on 3 pages)`,
    ]);
    const strict = await cli(folder, ["verify", "--strict"]);
    expect(strict.code).toBe(1);
    expect(lines(strict)[0]).toMatch(
      /^comments-mock verify: FAIL: .* differs from the contract \(--strict\): 2 tolerated differences \(3 responses, \d+ comments checked\)$/,
    );
    expect(lines(strict).slice(1)).toEqual(lines(tolerant).slice(1));
  });

  it("exits 2 when the service cannot be checked, without the token", async () => {
    const mock = await service();
    const run = await cli(siteFolder(mock.url, "wrong-token-0000"), ["verify"], { COMMENTS_API_TOKEN: undefined });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(
      /^comments-mock: Cannot verify .* for my-site\.test: the comments API rejected the API token/,
    );
    expect(run.stderr).not.toContain("wrong-token-0000");
  });
});

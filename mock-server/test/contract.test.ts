// The mock against the contract: every answer validates, pagination behaves like Laravel's,
// errors have the service's bodies, and arbitrary query strings never produce a 5xx.
import type { CommentListResponse, CommentThread } from "@astro-comments/schema";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockServer, type MockServer } from "../src/index.ts";
import { expectValid, get } from "./helpers.ts";

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ dataset: { seed: 7, size: 900 } });
});
afterAll(() => mock.close());

const page = async (query: string) => {
  const answer = await get(mock.url, query, mock.token);
  expect(answer.status).toBe(200);
  expectValid("listResponse", answer.body);
  return answer.body as CommentListResponse;
};
const identity = (c: CommentThread) => `${c.created_at}|${c.name}|${c.path}|${c.content}`;

describe("200 responses", () => {
  it("validate and keep Laravel's pagination invariants across per_page, page and path", async () => {
    for (const perPage of [1, 7, 50, 100]) {
      const first = await page(`domain=example.com&per_page=${perPage}`);
      const { total, last_page } = first.meta;
      expect(last_page).toBe(Math.max(1, Math.ceil(total / perPage)));
      for (const current of [1, 2, Math.ceil(last_page / 2), last_page, last_page + 1]) {
        const body = await page(`domain=example.com&per_page=${perPage}&page=${current}`);
        const { meta, links, data } = body;
        expect(meta.current_page).toBe(current);
        expect(meta.per_page).toBe(perPage);
        expect(data.length).toBeLessThanOrEqual(perPage);
        const expectedCount = Math.max(0, Math.min(perPage, total - (current - 1) * perPage));
        expect(data.length).toBe(expectedCount);
        expect(meta.from).toBe(expectedCount ? (current - 1) * perPage + 1 : null);
        expect(meta.to).toBe(expectedCount ? (current - 1) * perPage + expectedCount : null);
        expect(links.prev === null).toBe(current === 1);
        expect(links.next === null).toBe(current >= last_page);
        expect(links.first).toBe(`${mock.url}/api/comments?page=1`);
        expect(links.last).toBe(`${mock.url}/api/comments?page=${last_page}`);
        // The real service's links lose domain: a client must not follow them.
        expect(links.next ?? "").not.toContain("domain=");
      }
    }
  });

  it("walking every page returns each top-level comment exactly once, oldest first, count = total", async () => {
    for (const perPage of [13, 50]) {
      const first = await page(`domain=example.com&per_page=${perPage}`);
      const seen: CommentThread[] = [...first.data];
      for (let p = 2; p <= first.meta.last_page; p++)
        seen.push(...(await page(`domain=example.com&per_page=${perPage}&page=${p}`)).data);
      expect(seen.length).toBe(first.meta.total);
      expect(new Set(seen.map(identity)).size).toBe(seen.length);
      const times = seen.map((c) => c.created_at);
      expect([...times].sort()).toEqual(times);
      expect(seen.map(identity)).toEqual(mock.store.threads("example.com").map(identity));
    }
  });

  it("filters by exact path, never serves unapproved comments, nests replies without counting them", async () => {
    const body = await page("domain=example.com&path=/posts/hello-world");
    expect(body.data.map((c) => c.name)).toEqual(["Jane Doe"]);
    expect(body.data[0]?.children).toHaveLength(2);
    expect(body.meta.total).toBe(1);
    const all = await page("domain=example.com&per_page=100&page=1");
    expect(JSON.stringify(all)).not.toMatch(/"status":"(pending|spam)"/);
    const empty = await page("domain=empty.example");
    expect(empty).toMatchObject({ data: [], meta: { total: 0, from: null, to: null, last_page: 1 } });
  });

  it("caps per_page at 100 and reports the cap in meta", async () => {
    expect((await page("domain=example.com&per_page=500")).meta.per_page).toBe(100);
  });

  it("keeps the query in links only when asked to", async () => {
    const keeping = await startMockServer({ dataset: { seed: 7, size: 200 }, keepQueryInLinks: true });
    try {
      const body = (await get(keeping.url, "domain=example.com&per_page=5&path=", keeping.token))
        .body as CommentListResponse;
      expect(body.links.next).toBe(`${keeping.url}/api/comments?domain=example.com&per_page=5&page=2`);
    } finally {
      await keeping.close();
    }
  });

  it("is byte-compatible with PHP json_encode: escaped slashes and \\u escapes", async () => {
    const response = await fetch(`${mock.url}/api/comments?domain=example.com&path=/posts/around-the-world`, {
      headers: { authorization: `Bearer ${mock.token}` },
    });
    const raw = await response.text();
    expect(raw).toContain('"path":"\\/posts\\/around-the-world"');
    expect(raw).toContain("\\u674e\\u5c0f\\u9f99");
    expect(raw).not.toMatch(/[^\x00-\x7f]/);
  });
});

describe("errors", () => {
  it.each([
    ["no Authorization header", {}],
    ["a wrong token", { authorization: "Bearer nope" }],
    ["Basic credentials", { authorization: "Basic bW9jazp0b2tlbg==" }],
    ["an empty bearer", { authorization: "Bearer " }],
  ])("401 Unauthenticated for %s", async (_, headers) => {
    const answer = await get(mock.url, "domain=example.com", undefined, headers);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ message: "Unauthenticated." });
    expectValid("messageError", answer.body);
  });

  it("422 with Laravel's body for a missing domain or a bad per_page", async () => {
    const missing = await get(mock.url, "per_page=10", mock.token);
    expect(missing).toMatchObject({
      status: 422,
      body: { message: "The domain field is required.", errors: { domain: ["The domain field is required."] } },
    });
    const bad = await get(mock.url, "domain=example.com&per_page=abc", mock.token);
    expect(bad).toMatchObject({
      status: 422,
      body: { errors: { per_page: ["The per page field must be an integer."] } },
    });
    expectValid("validationError", bad.body);
  });

  it("403 for a domain outside the account, 404 for other routes, 405 for other methods", async () => {
    expect(await get(mock.url, "domain=not-mine.example", mock.token)).toMatchObject({
      status: 403,
      body: { message: "This action is unauthorized." },
    });
    const missing = await fetch(`${mock.url}/api/posts`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: "The route api/posts could not be found." });
    const post = await fetch(`${mock.url}/api/comments`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });

  it("serves the OpenAPI document's named examples on Prefer", async () => {
    const empty = await get(mock.url, "domain=example.com", mock.token, { prefer: "example=emptyPage" });
    expect(empty).toMatchObject({ status: 200, body: { data: [], meta: { total: 0 } } });
    expect((await get(mock.url, "domain=example.com", mock.token, { prefer: "code=401" })).status).toBe(401);
  });
});

describe("property: arbitrary query strings", () => {
  const names = fc.constantFrom("domain", "path", "per_page", "page", "page[]", "per_page[]", "domain[]", "x", "");
  const values = fc.oneof(
    fc.constantFrom(
      "example.com",
      "blog.example.org",
      "empty.example",
      "/posts/hello-world",
      "1",
      "2",
      "0",
      "-1",
      "02",
      "1e2",
      "+5",
      " 3 ",
      "abc",
      "",
      "%",
      "%zz",
      "99999999999999999999",
      "100",
      "500",
    ),
    fc.string({ maxLength: 12 }),
  );
  const queryString = fc
    .array(fc.tuple(names, values), { maxLength: 6 })
    .map((pairs) =>
      pairs.map(([name, value]) => `${name}=${/%/.test(value) ? value : encodeURIComponent(value)}`).join("&"),
    );

  it("never gets a 5xx; every 200 validates and every error has the documented shape", async () => {
    await fc.assert(
      fc.asyncProperty(queryString, fc.boolean(), async (query, authorized) => {
        const answer = await get(mock.url, query, authorized ? mock.token : undefined);
        expect([200, 401, 403, 422]).toContain(answer.status);
        if (answer.status === 200) expectValid("listResponse", answer.body);
        else if (answer.status === 422) expectValid("validationError", answer.body);
        else expectValid("messageError", answer.body);
      }),
      { seed: 20261121, numRuns: 300 },
    );
  });
});

describe("the mock refuses to serve what breaks the contract", () => {
  it("answers 500 and reports a violation when the dataset is off-contract", async () => {
    const violations: string[] = [];
    const broken = await startMockServer({
      comments: [
        {
          id: 1,
          domain: "example.com",
          parentId: null,
          status: "approved",
          created_at: "2023-11-26T06:30:07Z",
          content: "x",
          html: "",
          name: "n",
          path: "/",
        },
      ],
      onViolation: (detail) => violations.push(detail),
    });
    try {
      const answer = await get(broken.url, "domain=example.com", broken.token);
      expect(answer.status).toBe(500);
      expect(violations.join("\n")).toContain("created_at");
    } finally {
      await broken.close();
    }
  });
});

// Changing the mock while it runs: comments added or approved are served on the very next request,
// over HTTP (/__admin/), in-process and from the admin CLI.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { CommentListResponse } from "@astro-comments/schema";
import { afterEach, describe, expect, it } from "vitest";
import { generateDataset, startMockServer, type MockServer, type StoredComment } from "../src/index.ts";
import { expectValid, get } from "./helpers.ts";

let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const admin = async (server: MockServer, route: string, body?: unknown, token = server.token) => {
  const response = await fetch(`${server.url}/__admin/${route}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

const listPage = async (server: MockServer, query: string) => {
  const answer = await get(server.url, query, server.token);
  expect(answer.status).toBe(200);
  expectValid("listResponse", answer.body);
  return answer.body as CommentListResponse;
};

const firstPending = (comments: StoredComment[], parent: "top-level" | "reply") =>
  comments.find(
    (c) => c.status === "pending" && (c.parentId === null) === (parent === "top-level") && c.domain === "example.com",
  )!;

describe("POST /__admin/comments", () => {
  it("adds a comment that the next page request serves, with its id and the service's defaults", async () => {
    mock = await startMockServer({ dataset: { seed: 5, size: 200 } });
    const before = await listPage(mock, "domain=example.com&path=/posts/new");
    expect(before.meta.total).toBe(0);

    const added = await admin(mock, "comments", {
      domain: "example.com",
      path: "/posts/new",
      name: "Ann",
      content: "Hi <there> & you",
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      domain: "example.com",
      path: "/posts/new",
      name: "Ann",
      status: "approved",
      parentId: null,
      html: "<p>Hi &lt;there&gt; &amp; you</p>\n",
    });
    expect(added.body.id).toBeGreaterThan(0);
    expect(added.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

    const after = await listPage(mock, "domain=example.com&path=/posts/new");
    expect(after.data).toEqual([
      {
        created_at: added.body.created_at,
        content: "Hi <there> & you",
        html: "<p>Hi &lt;there&gt; &amp; you</p>\n",
        status: "approved",
        name: "Ann",
        path: "/posts/new",
        children: [],
      },
    ]);
    // The newest comment of the domain: the last item of the last page.
    const whole = await listPage(mock, "domain=example.com&per_page=100");
    const last = await listPage(mock, `domain=example.com&per_page=100&page=${whole.meta.last_page}`);
    expect(last.data.at(-1)?.name).toBe("Ann");
  });

  it("adds a reply under a thread already served (and cached), a pending one only once approved", async () => {
    mock = await startMockServer({ dataset: { seed: 5, size: 200 } });
    const thread = async () => (await listPage(mock!, "domain=example.com&path=/posts/hello-world")).data[0]!;
    const before = await thread();

    const reply = await admin(mock, "comments", {
      replyTo: 1,
      name: "Bob",
      content: "Agreed",
      created_at: "2030-01-01T00:00:00.000000Z",
    });
    expect(reply).toMatchObject({
      status: 201,
      body: { parentId: 1, domain: "example.com", path: "/posts/hello-world" },
    });
    expect((await thread()).children.map((c) => c.name)).toEqual([...before.children.map((c) => c.name), "Bob"]);

    const held = await admin(mock, "comments", { replyTo: 1, name: "Cy", content: "Later", status: "pending" });
    expect((await thread()).children).toHaveLength(before.children.length + 1);
    expect(await admin(mock, `comments/${String(held.body.id)}/approve`)).toMatchObject({
      status: 200,
      body: { status: "approved", name: "Cy" },
    });
    // Cy was created now, before Bob's 2030 timestamp: children stay oldest first.
    expect((await thread()).children.map((c) => c.name).slice(-2)).toEqual(["Cy", "Bob"]);
  });

  it("answers 422 saying what to fix for a bad body, and 401 without the token", async () => {
    mock = await startMockServer({ dataset: { size: 50 } });
    const cases: Array<[unknown, string]> = [
      [{ domain: "example.com", path: "/x", name: "Ann" }, 'send "name" and "content"'],
      [{ domain: "example.com", name: "Ann", content: "x" }, 'send "domain"'],
      [{ domain: "example.com", path: "/x", name: "Ann", content: "x", status: "spam" }, '"status"'],
      [{ domain: "example.com", path: "/x", name: "Ann", content: "x", reply_to: 1 }, "unknown field reply_to"],
      [
        { domain: "example.com", path: "/x", name: "Ann", content: "x", created_at: "2023-02-30T00:00:00.000000Z" },
        "created_at",
      ],
      [{ replyTo: 2, name: "Ann", content: "x" }, "is itself a reply; reply to its top-level comment 1"],
      [{ replyTo: 1, path: "/elsewhere", name: "Ann", content: "x" }, "leave domain and path out"],
      [{ replyTo: 999_999, name: "Ann", content: "x" }, "there is no comment 999999"],
      [[1, 2], "send a JSON object"],
    ];
    for (const [body, problem] of cases) {
      const answer = await admin(mock, "comments", body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(String(answer.body.message)).toContain(problem);
    }
    const notJson = await fetch(`${mock.url}/__admin/comments`, {
      method: "POST",
      headers: { authorization: `Bearer ${mock.token}` },
      body: "{",
    });
    expect(notJson.status).toBe(422);
    expect(
      await admin(mock, "comments", { domain: "example.com", path: "/x", name: "A", content: "x" }, "wrong"),
    ).toEqual({ status: 401, body: { message: "Unauthenticated." } });
    expect(
      (await fetch(`${mock.url}/__admin/comments`, { headers: { authorization: `Bearer ${mock.token}` } })).status,
    ).toBe(405);
    expect((await admin(mock, "nothing-here")).status).toBe(404);
  });

  it("refuses a request from a web page (an Origin header), even with the token, and changes nothing", async () => {
    mock = await startMockServer({ dataset: { size: 50 } });
    const response = await fetch(`${mock.url}/__admin/comments`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${mock.token}`,
        "content-type": "application/json",
        origin: "http://rebound.example:4010",
      },
      body: JSON.stringify({ domain: "example.com", path: "/posts/from-a-page", name: "Page", content: "x" }),
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { message: string }).message).toContain("use the mock's page");
    expect((await listPage(mock, "domain=example.com&path=/posts/from-a-page")).meta.total).toBe(0);
  });
});

describe("POST /__admin/comments/<id>/approve", () => {
  it("serves a pending comment on the next request; 404 for an unknown id", async () => {
    const comments = generateDataset({ seed: 5, size: 200 });
    mock = await startMockServer({ comments });
    const pending = firstPending(comments, "top-level");
    const query = `domain=example.com&path=${encodeURIComponent(pending.path)}&per_page=100`;
    const before = await listPage(mock, query);
    expect(before.data.some((c) => c.content === pending.content && c.name === pending.name)).toBe(false);

    expect(await admin(mock, `comments/${pending.id}/approve`)).toMatchObject({
      status: 200,
      body: { id: pending.id, status: "approved" },
    });
    const after = await listPage(mock, query);
    expect(after.meta.total).toBe(before.meta.total + 1);
    expect(after.data.some((c) => c.content === pending.content && c.name === pending.name)).toBe(true);

    const unknown = await admin(mock, "comments/999999/approve");
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain("Cannot approve comment 999999");
  });
});

describe("POST /__admin/comments/<id>/reject and /delete", () => {
  it("withdraw a served comment or reply from the next response; a deleted thread takes its replies", async () => {
    mock = await startMockServer({ dataset: { seed: 5, size: 200 } });
    const query = "domain=example.com&path=/posts/moderated";
    const top = mock.addComment({ domain: "example.com", path: "/posts/moderated", name: "Top", content: "x" });
    const reply = mock.addComment({ replyTo: top.id, name: "Reply", content: "y" });
    const other = mock.addComment({ domain: "example.com", path: "/posts/moderated", name: "Other", content: "z" });
    expect((await listPage(mock, query)).data.map((c) => [c.name, c.children.map((r) => r.name)])).toEqual([
      ["Top", ["Reply"]],
      ["Other", []],
    ]);

    expect(await admin(mock, `comments/${reply.id}/reject`)).toMatchObject({
      status: 200,
      body: { id: reply.id, status: "spam" },
    });
    expect((await listPage(mock, query)).data[0]!.children).toEqual([]);
    expect(await admin(mock, `comments/${other.id}/reject`)).toMatchObject({ status: 200, body: { status: "spam" } });
    expect((await listPage(mock, query)).data.map((c) => c.name)).toEqual(["Top"]);
    expect(mock.approve(other.id)?.status).toBe("approved");

    expect(await admin(mock, `comments/${top.id}/delete`)).toMatchObject({ status: 200, body: { id: top.id } });
    expect((await listPage(mock, query)).data.map((c) => c.name)).toEqual(["Other"]);
    expect(mock.store.get(reply.id)).toBeUndefined();
    expect(mock.store.pagesOf("example.com").find((p) => p.path === "/posts/moderated")).toEqual({
      path: "/posts/moderated",
      approved: 1,
      pending: 0,
      pendingReplies: 0,
    });
    expect((await admin(mock, `comments/${top.id}/delete`)).body.message).toContain(`Cannot delete comment ${top.id}`);
  });
});

describe("POST /__admin/faults", () => {
  it("switches latency, errors and the rate limit from the next request on; 422 for a bad value", async () => {
    mock = await startMockServer({ dataset: { size: 50 } });
    expect(await admin(mock, "faults", { errorRate: 1, maxConsecutiveFaults: 0 })).toMatchObject({
      status: 422,
      body: { message: expect.stringContaining("unknown field maxConsecutiveFaults") },
    });
    expect(await admin(mock, "faults", { dropRate: 2 })).toMatchObject({
      status: 422,
      body: { message: expect.stringContaining('"dropRate" as a share from 0 to 1') },
    });
    expect(await admin(mock, "faults", { rateLimit: { limit: 0, windowMs: 1000 } })).toMatchObject({ status: 422 });

    expect(await admin(mock, "faults", { errorRate: 1 })).toEqual({
      status: 200,
      body: { latencyMs: 0, errorRate: 1, dropRate: 0, rateLimit: null },
    });
    expect([500, 503]).toContain((await get(mock.url, "domain=example.com", mock.token)).status);
    await admin(mock, "faults", { errorRate: 0, rateLimit: { limit: 1, windowMs: 60_000 } });
    const statuses = [
      (await get(mock.url, "domain=example.com", mock.token)).status,
      (await get(mock.url, "domain=example.com", mock.token)).status,
    ];
    expect(statuses).toEqual([200, 429]);
    expect(mock.setFaults({ rateLimit: null })).toMatchObject({ rateLimit: null });
    expect((await get(mock.url, "domain=example.com", mock.token)).status).toBe(200);
  });
});

describe("in-process admin methods", () => {
  it("addComment, approve and setOutage act like the routes, without HTTP", async () => {
    const comments = generateDataset({ seed: 5, size: 200 });
    mock = await startMockServer({ comments });
    const totalBefore = mock.domains.find((d) => d.domain === "example.com")!.total;
    const added = mock.addComment({ domain: "example.com", path: "/posts/in-process", name: "Dee", content: "Hello" });
    expect((await listPage(mock, "domain=example.com&path=/posts/in-process")).data.map((c) => c.name)).toEqual([
      "Dee",
    ]);
    expect(mock.domains.find((d) => d.domain === "example.com")!.total).toBe(totalBefore + 1);
    expect(mock.store.get(added.id)).toBe(added);

    const reply = firstPending(comments, "reply");
    expect(mock.approve(reply.id)?.status).toBe("approved");
    expect(mock.approve(999_999)).toBeUndefined();
    expect(() =>
      mock!.addComment({ domain: "example.com", path: "/x", name: "A", content: "x", created_at: "yesterday" }),
    ).toThrow(/created_at "yesterday"/);

    mock.setOutage("500");
    expect((await get(mock.url, "domain=example.com", mock.token)).status).toBe(500);
    mock.setOutage("off");
    expect((await get(mock.url, "domain=example.com", mock.token)).status).toBe(200);
  });

  it("a new domain becomes part of the account", async () => {
    mock = await startMockServer({ dataset: { size: 50 } });
    expect((await get(mock.url, "domain=new.example", mock.token)).status).toBe(403);
    mock.addComment({ domain: "new.example", path: "/", name: "First", content: "Hi" });
    expect((await listPage(mock, "domain=new.example")).meta.total).toBe(1);
  });
});

describe("admin CLI", () => {
  const cli = fileURLToPath(new URL("../src/cli/comments-mock.ts", import.meta.url));
  const run = (server: MockServer, ...args: string[]) =>
    promisify(execFile)(process.execPath, [cli, "admin", "--url", server.url, "--token", server.token, ...args], {
      timeout: 100_000,
    });

  it("adds, approves and switches outages, printing one line of JSON each", async () => {
    mock = await startMockServer({ dataset: { size: 50 } });
    const added = await run(
      mock,
      "add",
      "--domain",
      "example.com",
      "--path",
      "/posts/cli",
      "--name",
      "Ann",
      "--content",
      "Hi",
      "--status",
      "pending",
    );
    const lines = added.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    const comment = JSON.parse(lines[0]!) as StoredComment;
    expect(comment).toMatchObject({ domain: "example.com", path: "/posts/cli", name: "Ann", status: "pending" });
    expect((await listPage(mock, "domain=example.com&path=/posts/cli")).meta.total).toBe(0);

    expect(JSON.parse((await run(mock, "approve", String(comment.id))).stdout)).toMatchObject({
      id: comment.id,
      status: "approved",
    });
    expect((await listPage(mock, "domain=example.com&path=/posts/cli")).meta.total).toBe(1);

    expect(JSON.parse((await run(mock, "outage", "500")).stdout)).toEqual({ mode: "500" });
    expect((await get(mock.url, "domain=example.com", mock.token)).status).toBe(500);
    await run(mock, "outage", "off");
    expect((await get(mock.url, "domain=example.com", mock.token)).status).toBe(200);
  });

  it("rejects, deletes, switches faults and mints a sign-in link", async () => {
    mock = await startMockServer({ dataset: { size: 50 } });
    const comment = mock.addComment({ domain: "example.com", path: "/posts/cli", name: "Ann", content: "Hi" });
    expect(JSON.parse((await run(mock, "reject", String(comment.id))).stdout)).toMatchObject({
      id: comment.id,
      status: "spam",
    });
    expect(JSON.parse((await run(mock, "delete", String(comment.id))).stdout)).toMatchObject({ id: comment.id });
    expect(mock.store.get(comment.id)).toBeUndefined();
    expect(
      JSON.parse((await run(mock, "faults", "--latency", "20", "--rate-limit", "5", "--rate-window", "1000")).stdout),
    ).toEqual({ latencyMs: 20, errorRate: 0, dropRate: 0, rateLimit: { limit: 5, windowMs: 1000 } });
    expect(JSON.parse((await run(mock, "faults", "--rate-limit", "off")).stdout)).toMatchObject({
      latencyMs: 20,
      rateLimit: null,
    });
    expect(JSON.parse((await run(mock, "sign-in")).stdout)).toEqual({
      url: expect.stringMatching(new RegExp(`^${mock.url}/__mock/\\?key=[\\w-]{43}$`)),
    });
  });

  it("exits non-zero with the mock's reason on stderr", async () => {
    mock = await startMockServer({ dataset: { size: 50 } });
    const refused = await run(mock, "outage", "sideways").then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused?.code).toBe(1);
    expect(refused?.stderr).toContain('Cannot switch the outage to "sideways"');
    expect(refused?.stderr.trimEnd().split("\n")).toHaveLength(1);
  });
});

describe("the page's overview", () => {
  /** The overview's HTML, signed in through the mock's one-time link as a developer would be. */
  async function overview(server: MockServer): Promise<string> {
    const signedIn = await fetch(server.signInUrl()!, { redirect: "manual" });
    const cookie = String(signedIn.headers.get("set-cookie")).split(";")[0]!;
    const answer = await fetch(`${server.url}/__mock/`, { headers: { cookie } });
    expect(answer.status).toBe(200);
    return answer.text();
  }
  const row = (html: string, path: string) =>
    new RegExp(`<tr><td><a [^>]*>${path}</a></td>((?:<td>\\d+</td>)+)</tr>`).exec(html)?.[1];

  it("counts a pending reply, which the API does not serve, in its page's row", async () => {
    mock = await startMockServer({ dataset: { seed: 5, size: 20 } });
    const top = await admin(mock, "comments", { domain: "example.com", path: "/posts/q", name: "Ann", content: "Q" });
    const reply = await admin(mock, "comments", { replyTo: top.body.id, name: "Bo", content: "A", status: "pending" });
    expect(reply.status).toBe(201);
    expect((await listPage(mock, "domain=example.com&path=/posts/q")).data[0]!.children).toEqual([]);
    const html = await overview(mock);
    expect(html).toContain('<th scope="col">Pending replies</th>');
    // Approved, pending, pending replies.
    expect(row(html, "/posts/q")).toBe("<td>1</td><td>0</td><td>1</td>");

    expect((await admin(mock, `comments/${reply.body.id}/approve`)).status).toBe(200);
    expect(row(await overview(mock), "/posts/q")).toBe("<td>1</td><td>0</td><td>0</td>");
  });
});

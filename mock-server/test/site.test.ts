// A site's own mock: the generated comments under the site's domain and on its pages, or exactly
// the comments of a data file, from the library and from the command line.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CommentListResponse } from "@astro-comments/schema";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadMockData, showcasePaths, startMockServer, type MockData, type MockServer } from "../src/index.ts";
import { crawl, expectValid, get, runCli, serveCli } from "./helpers.ts";

let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "comments-mock-site-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const list = async (server: MockServer, query: string) => {
  const answer = await get(server.url, query, server.token);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expectValid("listResponse", answer.body);
  return answer.body as CommentListResponse;
};
const writeData = (name: string, content: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return file;
};
const data = (comments: unknown[], domain = "my-site.test"): MockData =>
  ({ format: "comments-mock-data", version: 1, domain, comments }) as MockData;

describe("--domain: the generated comments under the site's domain", () => {
  it("serves them there and nowhere else, showcase threads included", async () => {
    mock = await startMockServer({ domain: "my-site.test", dataset: { size: 200 } });
    expect(mock.domains.map(({ domain }) => domain)).toEqual(["my-site.test"]);
    expect(mock.domains[0]!.total).toBe(200);
    const hello = await list(mock, `domain=my-site.test&path=${showcasePaths.hello}`);
    expect(hello.data.map((thread) => thread.name)).toContain("Jane Doe");
    expect((await get(mock.url, "domain=example.com", mock.token)).status).toBe(403);
  });

  it("gives each of several domains the same comments", async () => {
    mock = await startMockServer({ domain: ["my-site.test", "fr.my-site.test"], dataset: { size: 300 } });
    const [en, fr] = [
      await crawl(mock.url, mock.token, "my-site.test", 100),
      await crawl(mock.url, mock.token, "fr.my-site.test", 100),
    ];
    expect(en).toHaveLength(300);
    expect(fr).toEqual(en);
  });

  it("puts every comment on the site's own paths when it names them", async () => {
    const paths = ["/", "/about", "/posts/first"];
    mock = await startMockServer({ domain: "my-site.test", dataset: { size: 300, paths } });
    const threads = await crawl(mock.url, mock.token, "my-site.test", 100);
    expect(threads).toHaveLength(300);
    expect(new Set(threads.flatMap((thread) => [thread.path, ...thread.children.map((reply) => reply.path)]))).toEqual(
      new Set(paths),
    );
    // The showcase content came along: code samples and the XSS corpus are on the site's pages.
    expect(threads.some((thread) => thread.html.includes('<code class="language-rust">'))).toBe(true);
  });
});

describe("--data: exactly the comments of a data file", () => {
  const file = () =>
    writeData(
      "site.json",
      data([
        { created_at: "2026-01-03T10:00:00.000000Z", name: "Later", content: "Second <b>thread</b>", path: "/posts/b" },
        {
          created_at: "2026-01-02T10:00:00.000000Z",
          name: "Ann",
          content: "First",
          html: "<p>First</p>\n",
          path: "/posts/a",
          status: "approved",
          children: [
            { created_at: "2026-01-02T12:00:00.000000Z", name: "Held", content: "not yet", status: "pending" },
            { created_at: "2026-01-02T11:00:00.000000Z", name: "Bob", content: "Reply" },
          ],
        },
        { created_at: "2026-01-03T10:00:00.000000Z", name: "Same second", content: "tie", path: "/posts/b" },
        { created_at: "2026-01-01T10:00:00.000000Z", name: "Spam", content: "buy", path: "/posts/a", status: "spam" },
      ]),
    );

  it("serves the approved ones in the service's order, filling in html and reply paths", async () => {
    mock = await startMockServer({ data: file() });
    const body = await list(mock, "domain=my-site.test");
    expect(body.meta.total).toBe(3);
    expect(body.data.map((thread) => thread.name)).toEqual(["Ann", "Later", "Same second"]);
    expect(body.data[0]!.children).toEqual([
      {
        created_at: "2026-01-02T11:00:00.000000Z",
        content: "Reply",
        html: "<p>Reply</p>\n",
        status: "approved",
        name: "Bob",
        path: "/posts/a",
      },
    ]);
    expect(body.data[1]!.html).toBe("<p>Second &lt;b&gt;thread&lt;/b&gt;</p>\n");
    expect(mock.domains).toEqual([{ domain: "my-site.test", total: 3 }]);
  });

  it("serves the file's comments under --domain instead of the recorded one", async () => {
    mock = await startMockServer({ data: file(), domain: "localhost.test" });
    expect((await list(mock, "domain=localhost.test")).meta.total).toBe(3);
    expect((await get(mock.url, "domain=my-site.test", mock.token)).status).toBe(403);
  });

  it("refuses several files under one --domain: each file is its domain's", async () => {
    await expect(startMockServer({ data: [file(), data([])], domain: "one.test" })).rejects.toThrow(
      /^Cannot serve several data files under the given domain/,
    );
  });

  it("knows a recorded domain without comments: an empty list, not a refusal", async () => {
    mock = await startMockServer({
      data: [
        data([], "quiet.test"),
        writeData(
          "other.json",
          data([{ created_at: "2026-01-01T00:00:00.000000Z", name: "A", content: "x", path: "/" }], "busy.test"),
        ),
      ],
    });
    expect((await list(mock, "domain=quiet.test")).meta.total).toBe(0);
    expect((await list(mock, "domain=busy.test")).meta.total).toBe(1);
  });
});

describe("a malformed data file", () => {
  const good = { created_at: "2026-01-02T10:00:00.000000Z", name: "Ann", content: "Hi", path: "/" };
  it.each([
    [
      "a number for created_at",
      data([good, { ...good, created_at: 1767348000 }]),
      /\$\.comments\[1\]\.created_at \(comment 2 of 2\) must be a UTC time as the service writes it, such as 2023-11-26T06:30:07\.000000Z, not 1767348000/,
    ],
    [
      "a date without the service's precision",
      data([{ ...good, created_at: "2026-01-02" }]),
      /\$\.comments\[0\]\.created_at \(comment 1 of 1\) must be a UTC time .* not "2026-01-02"/,
    ],
    [
      "a reply without a name",
      data([{ ...good, children: [{ created_at: good.created_at, content: "x" }] }]),
      /\$\.comments\[0\]\.children\[0\] \(comment 1 of 1\) has no "name"/,
    ],
    [
      "a field the format does not have",
      data([good, good, { ...good, likes: 3 }]),
      /\$\.comments\[2\] \(comment 3 of 3\) has a field "likes" that the format does not have/,
    ],
    [
      "an unknown status",
      data([{ ...good, status: "deleted" }]),
      /\$\.comments\[0\]\.status \(comment 1 of 1\) must be one of "approved", "pending", "spam", not "deleted"/,
    ],
    ["another file", { comments: [] }, /\$ has no "format"; \$ has no "version"; \$ has no "domain"/],
    [
      "a newer format version",
      { ...data([]), version: 2 },
      /it is format version 2, and this comments-mock reads version 1\. Upgrade @astro-comments\/mock-server/,
    ],
    ["no JSON at all", "{ comments: [", /it is not JSON \(/],
  ])("fails to load with %s, naming the record and field", (_, content, message) => {
    const file = writeData("bad.json", content);
    expect(() => loadMockData(file)).toThrow(message);
    expect(() => loadMockData(file)).toThrow(
      new RegExp(`^Cannot load the comments data file ${file.replace(/[.\\]/g, "\\$&")}: `),
    );
  });

  it("fails to load a file that is not there", () => {
    expect(() => loadMockData(join(dir, "missing.json"))).toThrow(
      /missing\.json: there is no such file\. Pass a file that `comments-mock record --out FILE` wrote/,
    );
  });
});

describe("comments-mock (the command)", () => {
  it("prints the URL, token and domains on its first line, and serves there", async () => {
    const served = await serveCli(["--domain", "my-site.test", "--size", "250", "--token", "tok-cli"]);
    try {
      expect(served.token).toBe("tok-cli");
      expect(served.domains).toEqual(["my-site.test"]);
      expect((await crawl(served.url, served.token, "my-site.test", 100)).length).toBe(250);
    } finally {
      const { stdout, stderr } = await served.close();
      expect(stdout).toContain(
        `your site: COMMENTS_API_URL=${served.url} COMMENTS_API_TOKEN=tok-cli COMMENTS_DOMAIN=my-site.test`,
      );
      expect(stderr).toBe("");
    }
  });

  it("serves a data file under its domain", async () => {
    const served = await serveCli([
      "--data",
      writeData(
        "cli.json",
        data([{ created_at: "2026-01-02T10:00:00.000000Z", name: "Ann", content: "Hi", path: "/" }], "cli.test"),
      ),
    ]);
    try {
      expect(served.domains).toEqual(["cli.test"]);
      expect((await crawl(served.url, served.token, "cli.test", 10)).map((thread) => thread.name)).toEqual(["Ann"]);
    } finally {
      await served.close();
    }
  });

  it.each([
    [
      ["--data", "x.json", "--size", "5"],
      /^comments-mock: --size shapes the generated comments, and --data serves the file's instead: leave one out\.\nRun comments-mock --help/,
    ],
    [
      ["--domain", "https://my-site.test"],
      /--domain takes your site's domain as the comments service knows it, such as my-site\.com, not "https:\/\/my-site\.test"/,
    ],
    [["--domain", "a.test", "--domains", "b.test"], /give one of them/],
    [["--paths", "posts/a"], /--paths takes a number or your site's page paths/],
    [["--token", "two words"], /--token must be one word/],
    [["--bogus"], /Unknown option '--bogus'/],
  ])("refuses %j with exit code 2 and one line saying what to do", async (args, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe("");
  });

  it("refuses a malformed data file in one line naming the record, exit code 2", async () => {
    const file = writeData("cli-bad.json", data([{ created_at: "yesterday", name: "Ann", content: "Hi", path: "/" }]));
    const result = await runCli(["--data", file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `comments-mock: Cannot load the comments data file ${file}: $.comments[0].created_at (comment 1 of 1) must be a UTC time as the service writes it, such as 2023-11-26T06:30:07.000000Z, not "yesterday". Correct the record named, or record the file again with \`comments-mock record --out FILE\`.\n`,
    );
  });
});

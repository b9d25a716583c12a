// The crawl a check leaves for the build (freshness/check-crawl.ts) and where the check puts it
// (cli/cache-dir.ts): what is used, what is not and why, with an injected clock.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CommentThread } from "../../src/api/generated/api-types.ts";
import type { Credentials } from "../../src/api/credentials.ts";
import { siteCacheDir } from "../../src/cli/cache-dir.ts";
import { CheckCrawlWriter, checkCrawlFile, readCheckCrawl } from "../../src/freshness/check-crawl.ts";
import type { CompleteFreshnessState } from "../../src/freshness/freshness-state.ts";
import { resolveOptions } from "../../src/integration/options.ts";
import { integrityDigest } from "../../src/utils/integrity-digest.ts";

const credentials: Credentials = {
  domain: "example.com",
  endpoint: new URL("https://comments.example/api/comments"),
  apiToken: "secret-token-1234",
};
const crawledAt = "2026-11-27T09:00:00.000Z";
const at = (minutes: number) => Date.parse(crawledAt) + minutes * 60_000;
const TEN_MINUTES = 10 * 60_000;

const thread = (path: string, n: number): CommentThread => ({
  path,
  name: `Reader ${n}`,
  created_at: `2026-01-01T00:00:${String(n % 60).padStart(2, "0")}.000000Z`,
  content: `Comment ${n}`,
  html: `<p>Comment ${n}</p>\n`,
  status: "approved",
  children: [],
});

let dir: string;
let file: string;

/** A check's crawl of `pages` pages of two threads each, arriving last page first. */
async function writeCrawl(pages = 3): Promise<CompleteFreshnessState> {
  const writer = new CheckCrawlWriter(file, credentials, crawledAt);
  await writer.prepare();
  // A first attempt that starts over: nothing of it may remain.
  writer.collect().add(1, [thread("/gone", 99)]);
  const collector = writer.collect();
  for (let page = pages; page >= 1; page--) collector.add(page, [thread("/a", page * 2), thread("/b", page * 2 + 1)]);
  const state = collector.finish();
  await writer.commit(state, { requests: pages + 1, perPage: 2, bytes: 1234, pages });
  return state;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ac-check-crawl-"));
  file = checkCrawlFile(join(dir, "cache"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the crawl a check leaves", () => {
  it("reads back in served order, with the state and figures, and holds no token", async () => {
    const state = await writeCrawl();
    expect(readFileSync(file, "utf8")).not.toContain(credentials.apiToken);
    const found = await readCheckCrawl(file, credentials, TEN_MINUTES, at(3));
    expect(found).toMatchObject({ kind: "fresh", crawledAt, ageMs: 3 * 60_000, state });
    if (found.kind !== "fresh") return;
    expect(found.threads.all().map((t) => t.content)).toEqual([
      "Comment 2",
      "Comment 3",
      "Comment 4",
      "Comment 5",
      "Comment 6",
      "Comment 7",
    ]);
    expect(found.figures).toEqual({ requests: 4, perPage: 2, bytes: 1234, pages: 3 });
  });

  it("gives one site page's threads, from every page of the crawl that holds them, in served order", async () => {
    const writer = new CheckCrawlWriter(file, credentials, crawledAt);
    await writer.prepare();
    const collector = writer.collect();
    collector.add(2, [thread("/b/", 4), thread("/a", 5)]);
    collector.add(1, [thread("/a", 1), thread("/c", 2), thread("https://example.com/a?x=1", 3)]);
    await writer.commit(collector.finish(), { requests: 2, perPage: 3, bytes: 99, pages: 2 });
    const found = await readCheckCrawl(file, credentials, TEN_MINUTES, at(1));
    if (found.kind !== "fresh") throw new Error(`not fresh: ${JSON.stringify(found)}`);
    const contents = (key: string) => found.threads.of(key).map((t) => t.content);
    expect(contents("/a")).toEqual(["Comment 1", "Comment 3", "Comment 5"]);
    expect(contents("/b")).toEqual(["Comment 4"]);
    expect(contents("/c")).toEqual(["Comment 2"]);
    expect(contents("/d")).toEqual([]);
    expect(Object.keys(found.state.pages).sort()).toEqual(["/a", "/b", "/c"]);
  });

  it("is not used when its index leaves out a page of its state, or names a page it does not hold", async () => {
    await writeCrawl();
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    const why = async (change: (index: Record<string, number[]>) => void) => {
      const trailer = JSON.parse(lines.at(-1)!.slice(17));
      change(trailer.index);
      const json = JSON.stringify(trailer);
      writeFileSync(file, `${[...lines.slice(0, -1), `${integrityDigest(json)} ${json}`].join("\n")}\n`);
      const found = await readCheckCrawl(file, credentials, TEN_MINUTES, at(1));
      return found.kind === "ignored" ? found.why : found.kind;
    };
    expect(await why(() => undefined)).toBe("fresh");
    const damaged = "it is damaged (its index does not fit its state)";
    expect(await why((index) => delete index["/b"])).toBe(damaged);
    expect(await why((index) => (index["/b"] = [4]))).toBe(damaged);
    expect(await why((index) => (index["/b"] = []))).toBe(damaged);
    expect(await why((index) => (index["/gone"] = [1]))).toBe(damaged);
  });

  it("is none when no check left one", async () => {
    expect(await readCheckCrawl(file, credentials, TEN_MINUTES, at(0))).toEqual({ kind: "none" });
  });

  it("is not used when older than the window, or dated in the future", async () => {
    await writeCrawl();
    expect(await readCheckCrawl(file, credentials, TEN_MINUTES, at(10.5))).toEqual({
      kind: "ignored",
      why: "it is 10.5 min old, more than reuseCheckMinutes allows",
    });
    expect(await readCheckCrawl(file, credentials, TEN_MINUTES, at(-5))).toEqual({
      kind: "ignored",
      why: "it claims to be from the future",
    });
  });

  it("is not used for another domain, API URL or token", async () => {
    await writeCrawl();
    const why = async (other: Partial<Credentials>) => {
      const found = await readCheckCrawl(file, { ...credentials, ...other }, TEN_MINUTES, at(1));
      return found.kind === "ignored" ? found.why : found.kind;
    };
    expect(await why({ domain: "example.org" })).toBe("it is of another domain");
    expect(await why({ endpoint: new URL("https://other.example/api/comments") })).toBe("it is of another API URL");
    expect(await why({ apiToken: "secret-token-1235" })).toBe("it was made with another API token");
  });

  it("is not used when written by another version", async () => {
    await writeCrawl();
    const lines = readFileSync(file, "utf8").split("\n");
    const header = JSON.parse(lines[0]!.slice(17));
    header.version = "0.0.1";
    const json = JSON.stringify(header);
    lines[0] = `${integrityDigest(json)} ${json}`;
    writeFileSync(file, lines.join("\n"));
    expect(await readCheckCrawl(file, credentials, TEN_MINUTES, at(1))).toEqual({
      kind: "ignored",
      why: "it was written by astro-comments 0.0.1",
    });
  });

  it("is not used when cut short, missing a page or damaged", async () => {
    await writeCrawl();
    const whole = readFileSync(file, "utf8");
    const lines = whole.trimEnd().split("\n");
    const why = async (text: string) => {
      writeFileSync(file, text);
      const found = await readCheckCrawl(file, credentials, TEN_MINUTES, at(1));
      return found.kind === "ignored" ? found.why : found.kind;
    };
    expect(await why(`${lines.slice(0, -1).join("\n")}\n`)).toBe("it is cut short (it has no end)");
    expect(await why(`${[lines[0], lines[1], lines[3], lines[4]].join("\n")}\n`)).toBe("it is partial (2 of 3 pages)");
    expect(await why(whole.slice(0, whole.length - 40))).toMatch(/^it is damaged \(line 5 does not match its seal\)$/);
    expect(await why(whole.replace("Comment 4", "Comment 5"))).toBe("it is damaged (line 3 does not match its seal)");
    expect(await why(whole.replace("example.com", "example.con"))).toBe(
      "it is damaged (its first line does not match its seal)",
    );
  });
});

describe("where the check leaves it", () => {
  it("in the cacheDir astro.config sets as a plain string, else in Astro's default", () => {
    const root = join(dir, "site");
    expect(siteCacheDir(root)).toBe(join(root, "node_modules/.astro"));
    const write = (text: string) => {
      mkdirSync(root, { recursive: true });
      writeFileSync(join(root, "astro.config.mjs"), text);
    };
    write('export default defineConfig({\n  cacheDir: "./.cache/astro",\n  integrations: [],\n});\n');
    expect(siteCacheDir(root)).toBe(join(root, ".cache/astro"));
    write("export default defineConfig({\n  cacheDir: process.env.CACHE,\n});\n");
    expect(siteCacheDir(root)).toBe(join(root, "node_modules/.astro"));
  });
});

describe("the reuseCheckMinutes option", () => {
  const env = { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: "https://x.example", COMMENTS_API_TOKEN: "t" };
  it("defaults to 10, takes 0 to turn reuse off, and refuses hours", () => {
    expect(resolveOptions({}, env).reuseCheckMinutes).toBe(10);
    expect(resolveOptions({ reuseCheckMinutes: 0 }, env).reuseCheckMinutes).toBe(0);
    expect(() => resolveOptions({ reuseCheckMinutes: 120 }, env)).toThrowError(
      /"reuseCheckMinutes" must be from 0 to 60 minutes/,
    );
  });
});

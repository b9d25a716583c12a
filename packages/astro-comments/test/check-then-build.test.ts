// Issue 34 end to end: `astro-comments check` (the packaged bin) leaves its crawl in the site's cache
// folder, and the `astro build` right after it uses that crawl instead of asking the API again. A
// crawl that is stale (by its recorded time, never by waiting), damaged or of another domain is not
// used, and a failed check leaves none. The state the build publishes is the check's, so the next
// check answers 0 when nothing changed, and 1 when a comment was approved in between.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startMockServer, type MockServer } from "@astro-comments/mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { integrityDigest } from "../src/utils/integrity-digest.ts";
import { astroBuild, BUILD_TIMEOUT_MS } from "./helpers/astro-cli.ts";
import { run, type RunResult } from "./helpers/pack-sites.ts";
import { copySite, type SiteCopy } from "./helpers/site-copy.ts";
import { stateSiteConfig } from "./helpers/state-site.ts";

const DOMAIN = "reuse.example";
const bin = fileURLToPath(new URL("../dist/cli/astro-comments.js", import.meta.url));
const guide = readFileSync(fileURLToPath(new URL("../../../docs/rebuild-on-change.md", import.meta.url)), "utf8");

let mock: MockServer;
let site: SiteCopy;
let crawlFile: string;

const env = (extra: Record<string, string> = {}) => ({
  COMMENTS_DOMAIN: DOMAIN,
  COMMENTS_API_URL: mock.url,
  COMMENTS_API_TOKEN: mock.token,
  ...extra,
});

/** The packaged bin, run in the site's folder as a host's ignore step runs it. */
const check = (state: string, args: string[] = [], extra: Record<string, string> = {}): Promise<RunResult> =>
  run(process.execPath, [bin, "check", "--state", state, ...args], site.dir, env(extra));

/** `astro build` of the site, and how many requests the API saw while it ran. */
async function build(): Promise<{ log: string; out: string; requests: number }> {
  const before = mock.requestCount;
  const result = await astroBuild(env(), undefined, site.dir);
  expect(result.code, result.log).toBe(0);
  return { log: result.log, out: result.out, requests: mock.requestCount - before };
}

const stateOf = (out: string) => join(out, "comments/state.json");
const publishedState = (out: string) => JSON.parse(readFileSync(stateOf(out), "utf8")) as { crawledAt: string };

/** Rewrites the header line of the crawl file (and its seal), as a crawl made at another time would have it. */
function rewriteHeader(change: (header: Record<string, unknown>) => void): void {
  const lines = readFileSync(crawlFile, "utf8").split("\n");
  const header = JSON.parse(lines[0]!.slice(17)) as Record<string, unknown>;
  change(header);
  const json = JSON.stringify(header);
  lines[0] = `${integrityDigest(json)} ${json}`;
  writeFileSync(crawlFile, lines.join("\n"));
}

const addComment = (path: string, content: string) =>
  mock.addComment({ domain: DOMAIN, path, name: "Reader", content, created_at: "2026-03-05T10:00:00.000000Z" });

beforeAll(async () => {
  mock = await startMockServer({ dataset: { seed: 3, size: 10 } });
  // 60 comments over three site pages: three requests of 25.
  const pages = ["/posts/hello-world", "/posts/code-in-comments/", "/posts/quiet-post"];
  for (let i = 0; i < 60; i++) addComment(pages[i % 3]!, `Comment ${i}`);
  site = copySite("check-then-build");
  writeFileSync(join(site.dir, "astro.config.mjs"), stateSiteConfig);
  crawlFile = join(site.dir, "node_modules/.astro/astro-comments/check-crawl.jsonl");
});

afterAll(async () => {
  await mock?.close();
  site?.remove();
});

describe("a build right after a check", () => {
  let first: { log: string; out: string; requests: number };
  let checkState: string;

  it(
    "uses the check's crawl, sends the API no request, and says so",
    async () => {
      // A first deploy: no state to compare with; the check says build, and still leaves its crawl.
      const answer = await check(join(site.dir, "no-state-yet.json"));
      expect(answer.code, answer.output).toBe(1);
      expect(existsSync(crawlFile)).toBe(true);
      const text = readFileSync(crawlFile, "utf8");
      expect(text).not.toContain(mock.token);
      checkState = JSON.parse(text.trimEnd().split("\n").at(-1)!.slice(17)).state.crawledAt;

      first = await build();
      expect(first.requests).toBe(0);
      expect(first.log).toMatch(
        /60 comments on 3 pages: 3 rendered, 0 unchanged, 0 removed \(reused the crawl astro-comments check made \d+ s ago: 1 request of 100, [\d.]+ MiB; no request now\)/,
      );
      expect(first.log).not.toContain("fetching comments");
      // The build publishes what the check saw, and the crawl served this one build.
      expect(publishedState(first.out).crawledAt).toBe(checkState);
      expect(readFileSync(join(first.out, "posts/quiet-post/index.html"), "utf8")).toContain("Comment 59");
      expect(existsSync(crawlFile)).toBe(false);
    },
    BUILD_TIMEOUT_MS,
  );

  it("is followed by a check that answers 0 when nothing changed", async () => {
    const answer = await check(stateOf(first.out));
    expect(answer.stdout).toMatch(/no approved comment changed .* \(60 comments on 3 pages\); nothing to build\./);
    expect(answer.code).toBe(0);
  });

  it(
    "shows the check's comments; one approved in between is in the next check's answer",
    async () => {
      const before = await check(stateOf(first.out));
      expect(before.code, before.output).toBe(0);
      addComment("/posts/quiet-post", "Approved between check and build");
      const between = await build();
      expect(between.requests).toBe(0);
      expect(readFileSync(join(between.out, "posts/quiet-post/index.html"), "utf8")).not.toContain(
        "Approved between check and build",
      );
      const next = await check(stateOf(between.out));
      expect(next.stdout).toMatch(/1 page has new comments since .*: \/posts\/quiet-post \(\+1\); build\./);
      expect(next.code).toBe(1);
      // And that check's crawl brings the comment into the build after it.
      const after = await build();
      expect(after.requests).toBe(0);
      expect(readFileSync(join(after.out, "posts/quiet-post/index.html"), "utf8")).toContain(
        "Approved between check and build",
      );
    },
    3 * BUILD_TIMEOUT_MS,
  );
});

describe("a crawl the build does not use", () => {
  const notUsed = async (spoil: () => void, why: RegExp) => {
    const answer = await check(join(site.dir, "no-state-yet.json"));
    expect(answer.code, answer.output).toBe(1);
    spoil();
    const built = await build();
    expect(built.log).toMatch(
      new RegExp(
        `not using the crawl astro-comments check left in .*check-crawl\\.jsonl: ${why.source}; fetching instead`,
      ),
    );
    expect(built.log).toMatch(/fetching comments of reuse\.example/);
    expect(built.requests).toBeGreaterThan(0);
    // The builds before took their pages' digests from a check's crawl; this one's own crawl gives the same.
    expect(built.log).toMatch(/61 comments on 3 pages: 0 rendered, 3 unchanged, 0 removed/);
    expect(existsSync(crawlFile)).toBe(false);
  };

  it(
    "a stale one, older by its recorded time than reuseCheckMinutes",
    () =>
      notUsed(
        () => rewriteHeader((header) => void (header.crawledAt = new Date(Date.now() - 11 * 60_000).toISOString())),
        /it is 1\d\.\d min old, more than reuseCheckMinutes allows/,
      ),
    BUILD_TIMEOUT_MS,
  );

  it(
    "a damaged one",
    () =>
      notUsed(() => {
        const text = readFileSync(crawlFile, "utf8");
        const at = text.indexOf("Comment 1");
        writeFileSync(crawlFile, `${text.slice(0, at)}Commant${text.slice(at + 7)}`);
      }, /it is damaged \(line \d+ does not match its seal\)/),
    BUILD_TIMEOUT_MS,
  );

  it(
    "one made for another domain",
    () => notUsed(() => rewriteHeader((header) => void (header.domain = "other.example")), /it is of another domain/),
    BUILD_TIMEOUT_MS,
  );
});

describe("a check that fails", () => {
  it("leaves no crawl for the build, and removes an earlier one", async () => {
    // Run from elsewhere, --root names the site's folder.
    const good = await run(
      process.execPath,
      [bin, "check", "--root", site.dir, "--state", join(site.dir, "no-state-yet.json")],
      tmpdir(),
      env(),
    );
    expect(good.code, good.output).toBe(1);
    expect(existsSync(crawlFile)).toBe(true);
    mock.setOutage("down");
    try {
      const failed = await check(join(site.dir, "no-state-yet.json"), ["--retries", "0"]);
      expect(failed.code).toBe(1);
    } finally {
      mock.setOutage("off");
    }
    expect(existsSync(crawlFile)).toBe(false);
    // Nor anything half-written beside it.
    expect(readdirSync(dirname(crawlFile)).filter((name) => name.startsWith("check-crawl"))).toEqual([]);
  });
});

describe("the guide's cron script", () => {
  const script = /```sh title="check-and-build\.sh"\n([\s\S]*?)```/.exec(guide)?.[1];

  it(
    "builds with the check's crawl when the comments changed, and does nothing when they did not",
    async () => {
      expect(script, "docs/rebuild-on-change.md has no check-and-build.sh").toBeDefined();
      // The site as npm installs it: the package's bin in node_modules/.bin.
      const bins = join(site.dir, "node_modules/.bin");
      mkdirSync(bins, { recursive: true });
      if (!existsSync(join(bins, "astro-comments"))) symlinkSync(bin, join(bins, "astro-comments"));
      chmodSync(bin, 0o755);
      const cron = (state: string) =>
        run("bash", ["-c", script!], site.dir, {
          ...env({ COMMENTS_STATE_URL: state }),
          npm_config_offline: "true",
          npm_config_update_notifier: "false",
        });
      // Against a state without the newest comment: the check says build, and the build uses its crawl.
      const older = await build();
      addComment("/posts/hello-world", "Approved before the cron ran");
      const before = mock.requestCount;
      const changed = await cron(stateOf(older.out));
      expect(changed.code, changed.output).toBe(0);
      expect(changed.output).toMatch(/1 page has new comments .*\/posts\/hello-world \(\+1\); build\./);
      expect(changed.output).toMatch(/reused the crawl astro-comments check made \d+ s ago/);
      expect(mock.requestCount - before).toBe(1);
      const built = join(site.dir, "dist");
      expect(readFileSync(join(built, "posts/hello-world/index.html"), "utf8")).toContain(
        "Approved before the cron ran",
      );
      // Against what that build published: nothing to build.
      const unchanged = await cron(stateOf(built));
      expect(unchanged.code, unchanged.output).toBe(0);
      expect(unchanged.output).toContain("nothing to build");
      expect(unchanged.output).not.toContain("[build]");
    },
    3 * BUILD_TIMEOUT_MS,
  );
});

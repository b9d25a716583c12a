// Issue 21 end to end: a real `astro build` publishes its comments state, its dist/ is served as a
// host would, and `astro-comments check` (the packaged bin, with Astro and Vite forbidden to load)
// answers against the mock while comments are added, approved and the service fails. The recipes
// of docs/rebuild-on-change.md run here as written, with git, npx and bash.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startMockServer, type MockServer } from "@astro-comments/mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { astroBuild, BUILD_TIMEOUT_MS } from "./helpers/astro-cli.ts";
import { run, type RunResult } from "./helpers/pack-sites.ts";
import { serve } from "./helpers/servers.ts";
import { copySite, type SiteCopy } from "./helpers/site-copy.ts";
import { stateSiteConfig } from "./helpers/state-site.ts";
import { serveStatic } from "./helpers/static-site.ts";

const DOMAIN = "empty.example";
const packageDir = fileURLToPath(new URL("../", import.meta.url));
const bin = join(packageDir, "dist/cli/astro-comments.js");
const guide = readFileSync(fileURLToPath(new URL("../../../docs/rebuild-on-change.md", import.meta.url)), "utf8");

// Fails the check the moment anything would load Astro or Vite.
const forbidAstro = `data:text/javascript,${encodeURIComponent(
  'import{registerHooks}from"node:module";registerHooks({resolve(s,c,n){if(/^(astro|vite)(\\/|$)/.test(s))throw new Error("the check loaded "+s);return n(s,c)}});',
)}`;

let mock: MockServer;
let site: SiteCopy;
let dist: { url: string; close: () => Promise<void> };
let out: string;
let project: string;
let stateUrl: string;
const commits: string[] = [];
let oldThread: number;

const commentsEnv = (extra: Record<string, string> = {}) => ({
  COMMENTS_DOMAIN: DOMAIN,
  COMMENTS_API_URL: mock.url,
  COMMENTS_API_TOKEN: mock.token,
  COMMENTS_STATE_URL: stateUrl,
  ...extra,
});

/** The packaged bin, in a folder without .env files, with Astro and Vite unloadable. */
const check = (args: string[] = [], env: Record<string, string> = {}): Promise<RunResult> =>
  run(process.execPath, ["--import", forbidAstro, bin, "check", ...args], project, commentsEnv(env));

/** The one line a check printed (stdout holds nothing else). */
function oneLine(result: RunResult): string {
  expect(result.output.trim().split("\n"), result.output).toHaveLength(1);
  return result.output.trim();
}

const admin = async (path: string, body?: object) => {
  const response = await fetch(`${mock.url}/__admin/${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${mock.token}`, "content-type": "application/json" },
    body: body && JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return (await response.json()) as { id: number };
};

/** A recipe's command, as the guide writes it (a fenced block titled with its file name). */
function fenced(file: string): string {
  const block = new RegExp('```\\w+ title="' + file.replaceAll(".", "\\.") + '"\\n([\\s\\S]*?)```').exec(guide);
  if (!block) throw new Error(`docs/rebuild-on-change.md has no block titled ${file}`);
  return block[1]!;
}
const netlifyIgnore = () => JSON.parse(/^\s*ignore = (".*")$/m.exec(fenced("netlify.toml"))![1]!) as string;
const vercelIgnore = () => (JSON.parse(fenced("vercel.json")) as { ignoreCommand: string }).ignoreCommand;
/** The `run: |` script of the workflow's step `id: comments`, dedented. */
function workflowCheck(): string {
  const lines = fenced(".github/workflows/deploy.yml").split("\n");
  const step = lines.findIndex((line) => line.trim() === "- id: comments");
  const start = lines.findIndex((line, i) => i > step && line.trim() === "run: |") + 1;
  const indent = /^\s*/.exec(lines[start]!)![0];
  const body: string[] = [];
  for (const line of lines.slice(start)) {
    if (!line.startsWith(indent)) break;
    body.push(line.slice(indent.length));
  }
  return body.join("\n");
}
/** Runs a recipe in the project folder with bash, as the hosts do; npm may not touch the registry. */
const recipe = (script: string, env: Record<string, string>, shell: string[] = ["-c"]) =>
  run("bash", [...shell, script], project, {
    ...commentsEnv(),
    npm_config_offline: "true",
    npm_config_update_notifier: "false",
    ...env,
  });

beforeAll(async () => {
  mock = await startMockServer({ dataset: { seed: 2, size: 10 } });
  // 60 top-level comments, three to a second, over three pages: per_page 25 and 100 cut them
  // differently, and ties are everywhere.
  const pages = ["/posts/hello-world", "/posts/code-in-comments/", "/posts/quiet-post"];
  for (let i = 0; i < 60; i++) {
    const second = String(Math.floor(i / 3)).padStart(2, "0");
    const added = mock.addComment({
      domain: DOMAIN,
      path: pages[i % 3]!,
      name: `Reader ${i % 7}`,
      content: `Comment ${i % 11}`,
      created_at: `2026-03-01T10:00:${second}.000000Z`,
    });
    if (i === 0) oldThread = added.id;
    if (i % 10 === 0)
      mock.addComment({
        replyTo: added.id,
        name: "Author",
        content: "Thanks!",
        created_at: `2026-03-02T10:00:${second}.000000Z`,
      });
  }
  // Identical twins.
  for (let i = 0; i < 2; i++)
    mock.addComment({
      domain: DOMAIN,
      path: "/posts/quiet-post",
      name: "Twin",
      content: "Same",
      created_at: "2026-03-03T10:00:00.000000Z",
    });

  site = copySite("freshness");
  writeFileSync(join(site.dir, "astro.config.mjs"), stateSiteConfig);
  const build = await astroBuild(
    { COMMENTS_DOMAIN: DOMAIN, COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: mock.token },
    undefined,
    site.dir,
  );
  if (build.code !== 0) throw new Error(`the build failed:\n${build.log}`);
  out = build.out;
  dist = await serveStatic(out);
  stateUrl = `${dist.url}/comments/state.json`;

  // The site as a host checks it out: a git repository with the package installed, as npm does it.
  project = mkdtempSync(join(tmpdir(), "ac-recipes-"));
  writeFileSync(join(project, "package.json"), '{ "name": "site", "private": true }\n');
  mkdirSync(join(project, "node_modules/.bin"), { recursive: true });
  symlinkSync(packageDir, join(project, "node_modules/astro-comments"), "junction");
  symlinkSync("../astro-comments/dist/cli/astro-comments.js", join(project, "node_modules/.bin/astro-comments"));
  chmodSync(bin, 0o755);
  const git = (...args: string[]) =>
    run("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], project);
  await git("init", "-q");
  for (const text of ["one", "two"]) {
    writeFileSync(join(project, "page.txt"), text);
    await git("add", "page.txt");
    await git("commit", "-q", "-m", text);
    commits.push((await git("rev-parse", "HEAD")).stdout.trim());
  }
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  await dist?.close();
  await mock?.close();
  site?.remove();
  if (project) rmSync(project, { recursive: true, force: true });
});

describe("the published state", () => {
  it("holds each page's count and digest, the crawl's time, the domain and a format, and no text or token", () => {
    const text = readFileSync(join(out, "comments/state.json"), "utf8");
    const state = JSON.parse(text);
    expect(state).toMatchObject({
      format: 1,
      generator: "astro-comments",
      domain: DOMAIN,
      complete: true,
      comments: 68,
    });
    expect(Object.keys(state.pages)).toEqual(["/posts/code-in-comments", "/posts/hello-world", "/posts/quiet-post"]);
    expect(state.pages["/posts/hello-world"].count).toBe(22);
    expect(state.pages["/posts/quiet-post"].count).toBe(24);
    expect(Date.parse(state.crawledAt)).not.toBeNaN();
    expect(text).not.toMatch(/Comment \d|Reader|Thanks|Twin/);
    expect(text).not.toContain(mock.token);
  });
});

describe("before any approved comment changed", () => {
  it("says unchanged and exits 0, without loading Astro or Vite", async () => {
    const result = await check();
    expect(oneLine(result)).toMatch(
      /^astro-comments: no approved comment changed since the deployed build's crawl at \d{4}-\d\d-\d\d \d\d:\d\d UTC \(68 comments on 3 pages\); nothing to build\.$/,
    );
    expect(result.code).toBe(0);
  });

  it("gives 0 for a re-crawl at another per_page, and reads the state from a file too", async () => {
    for (const args of [
      ["--per-page", "50"],
      ["--per-page", "7"],
      ["--state", join(out, "comments/state.json")],
    ]) {
      const result = await check(args);
      expect(result.code, result.output).toBe(0);
    }
  });

  it("gives 0 for a pending comment and a pending reply on an old thread", async () => {
    await admin("comments", {
      domain: DOMAIN,
      path: "/posts/quiet-post",
      name: "Pending",
      content: "Not yet",
      status: "pending",
    });
    await admin("comments", {
      replyTo: oldThread,
      name: "Pending reply",
      content: "Not yet either",
      status: "pending",
    });
    const result = await check();
    expect(result.code, result.output).toBe(0);
  });

  it("Netlify's ignore command skips the build, and builds when the site's code changed", async () => {
    const [before, after] = commits as [string, string];
    const skip = await recipe(netlifyIgnore(), { CACHED_COMMIT_REF: after, COMMIT_REF: after });
    expect(skip.code, skip.output).toBe(0);
    expect(skip.output).toContain("nothing to build");
    const code = await recipe(netlifyIgnore(), { CACHED_COMMIT_REF: before, COMMIT_REF: after });
    expect(code.code, code.output).toBe(1);
  });

  it("Netlify's ignore command builds, and downloads nothing, where the package is not installed", async () => {
    const bare = mkdtempSync(join(tmpdir(), "ac-recipes-bare-"));
    try {
      const git = (...args: string[]) =>
        run("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], bare);
      await git("init", "-q");
      writeFileSync(join(bare, "page.txt"), "one");
      await git("add", "page.txt");
      await git("commit", "-q", "-m", "one");
      const head = (await git("rev-parse", "HEAD")).stdout.trim();
      const result = await run("bash", ["-c", netlifyIgnore()], bare, {
        ...commentsEnv(),
        npm_config_offline: "true",
        npm_config_update_notifier: "false",
        CACHED_COMMIT_REF: head,
        COMMIT_REF: head,
      });
      expect(result.code, result.output).not.toBe(0);
      expect(result.output).not.toContain("astro-comments:");
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it("Vercel's Ignored Build Step skips the build, and builds on new code or a first deployment", async () => {
    const [before, after] = commits as [string, string];
    expect((await recipe(vercelIgnore(), { VERCEL_GIT_PREVIOUS_SHA: after, VERCEL_GIT_COMMIT_SHA: after })).code).toBe(
      0,
    );
    expect((await recipe(vercelIgnore(), { VERCEL_GIT_PREVIOUS_SHA: before, VERCEL_GIT_COMMIT_SHA: after })).code).toBe(
      1,
    );
    // No previous deployment: git diff fails (128), and Vercel builds on any code but 0.
    expect(
      (await recipe(vercelIgnore(), { VERCEL_GIT_PREVIOUS_SHA: "", VERCEL_GIT_COMMIT_SHA: after })).code,
    ).toBeGreaterThan(0);
  });

  it("the GitHub Actions workflow skips building and deploying on a schedule, and builds on a push", async () => {
    const workflow = fenced(".github/workflows/deploy.yml");
    expect(workflow).toMatch(/- if: steps\.comments\.outputs\.build == 'true'\n\s+run: npm run build/);
    expect(workflow).toMatch(/deploy:\n\s+needs: build\n\s+if: needs\.build\.outputs\.build == 'true'/);
    for (const [event, wanted] of [
      ["schedule", "build=false"],
      ["push", "build=true"],
    ] as const) {
      const output = join(project, `github-output-${event}`);
      // GitHub runs `run:` scripts with `bash --noprofile --norc -eo pipefail {0}`.
      const result = await recipe(workflowCheck(), { GITHUB_EVENT_NAME: event, GITHUB_OUTPUT: output }, [
        "--noprofile",
        "--norc",
        "-eo",
        "pipefail",
        "-c",
      ]);
      expect(result.code, result.output).toBe(0);
      expect(readFileSync(output, "utf8")).toBe(`${wanted}\n`);
    }
  });
});

describe("after approvals", () => {
  it("gives 1 for a reply approved on an old thread, naming its page", async () => {
    const reply = await admin("comments", {
      replyTo: oldThread,
      name: "Late reply",
      content: "Approved later",
      status: "pending",
    });
    await admin(`comments/${reply.id}/approve`);
    const result = await check();
    expect(oneLine(result)).toMatch(
      /^astro-comments: 1 page has new comments since the deployed build's crawl at .* UTC: \/posts\/hello-world \(\+1\); build\.$/,
    );
    expect(result.code).toBe(1);
  });

  it("gives 1 for a comment approved through the mock's admin, naming its page", async () => {
    const comment = await admin("comments", {
      domain: DOMAIN,
      path: "/posts/code-in-comments",
      name: "Newcomer",
      content: "Hello",
      status: "pending",
    });
    expect((await check()).output).not.toContain("/posts/code-in-comments");
    await admin(`comments/${comment.id}/approve`);
    const result = await check();
    expect(oneLine(result)).toMatch(
      /: 2 pages have new comments since .*: \/posts\/code-in-comments \(\+1\), \/posts\/hello-world \(\+1\); build\.$/,
    );
    expect(result.code).toBe(1);
  });

  it("makes every recipe build", async () => {
    const [, after] = commits as [string, string];
    const netlify = await recipe(netlifyIgnore(), { CACHED_COMMIT_REF: after, COMMIT_REF: after });
    expect(netlify.code).toBe(1);
    expect(netlify.output).toContain("2 pages have new comments");
    expect((await recipe(vercelIgnore(), { VERCEL_GIT_PREVIOUS_SHA: after, VERCEL_GIT_COMMIT_SHA: after })).code).toBe(
      1,
    );
    const output = join(project, "github-output-approved");
    await recipe(workflowCheck(), { GITHUB_EVENT_NAME: "schedule", GITHUB_OUTPUT: output }, [
      "--noprofile",
      "--norc",
      "-eo",
      "pipefail",
      "-c",
    ]);
    expect(readFileSync(output, "utf8")).toBe("build=true\n");
  });
});

describe("when the answer is not certain, the host builds", () => {
  it("when the state's server answers 404 (a first deploy), saying so in one line", async () => {
    const empty = await serve((_req, res) =>
      res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not found</h1>"),
    );
    try {
      const result = await check([], { COMMENTS_STATE_URL: `${empty.url}/comments/state.json` });
      expect(oneLine(result)).toBe(
        `astro-comments: cannot tell whether the comments changed: there is no deployed state at ${empty.url}/comments/state.json (HTTP 404): a first deploy, or a build without feeds.state; build.`,
      );
      expect(result.code).toBe(1);
    } finally {
      await empty.close();
    }
  });

  it("when the service is down, saying so in one line without the token", async () => {
    mock.setOutage("down");
    try {
      const result = await check(["--retries", "1"]);
      expect(oneLine(result)).toMatch(
        /^astro-comments: cannot tell whether the comments changed: the comments API did not answer: .*; build\.$/,
      );
      expect(result.output).not.toContain(mock.token);
      expect(result.code).toBe(1);
    } finally {
      mock.setOutage("off");
    }
  });

  it("when the service hangs or refuses the token, or the state is another domain's", async () => {
    mock.setOutage("hang");
    try {
      // The deployed state from its file: its static server, in this busy test process, could
      // itself miss a 0.5 s timeout, and the check would then answer about the state instead.
      const hung = await check(["--retries", "0", "--timeout", "500", "--state", join(out, "comments/state.json")]);
      expect(oneLine(hung)).toMatch(
        /^astro-comments: cannot tell whether the comments changed: the comments API did not answer: no response headers within 0\.5 s; .*; build\.$/,
      );
      expect(hung.code).toBe(1);
    } finally {
      mock.setOutage("off");
    }
    const refused = await check([], { COMMENTS_API_TOKEN: "not-the-token" });
    expect(oneLine(refused)).toMatch(
      /^astro-comments: cannot tell whether the comments changed: the comments API rejected the API token .*HTTP 401\); build\.$/,
    );
    expect(refused.output).not.toContain("not-the-token");
    expect(refused.code).toBe(1);
    const other = await check(["--domain", "example.com"]);
    expect(oneLine(other)).toBe(
      `astro-comments: cannot tell whether the comments changed: the deployed state at ${stateUrl} is of ${DOMAIN}, not example.com; build.`,
    );
    expect(other.code).toBe(1);
  });

  it("when the service's rate limit asks for a longer wait than the check's budget", async () => {
    const limited = await startMockServer({
      dataset: { seed: 2, size: 10 },
      faults: { rateLimit: { limit: 1, windowMs: 60_000 } },
    });
    try {
      for (let i = 0; i < 150; i++)
        limited.addComment({
          domain: DOMAIN,
          path: "/posts/hello-world",
          name: "Many",
          content: `Comment ${i}`,
          created_at: "2026-03-04T10:00:00.000000Z",
        });
      // The window's Retry-After is about a minute: far past a 5 s budget, whatever the timing.
      const result = await check(["--rate-limit-wait", "5000"], { COMMENTS_API_URL: limited.url });
      expect(oneLine(result)).toMatch(
        /^astro-comments: cannot tell whether the comments changed: the comments service's rate limit \(1 request a minute\) asks to wait \d+ s \(Retry-After\), more than the 5 s left of --rate-limit-wait \(5 s\); this site needs 2 pages of 100 comments, 1 fetched so far .*; build\.$/,
      );
      expect(result.code).toBe(1);
    } finally {
      await limited.close();
    }
  });

  it("when it is asked something it does not know", async () => {
    const result = await check(["--per-page", "500"]);
    expect(oneLine(result)).toBe(
      'astro-comments: cannot tell whether the comments changed: --per-page must be a whole number from 1 to 100, not "500"; build.',
    );
    expect(result.code).toBe(1);
  });
});

// The cache folder as CI machines give it, in real `astro build`s of one copy of the example site:
// `node_modules/.astro` or `cacheDir` a symlink to another disk (how CI caches are mounted), a
// read-only mount, a folder of another user, a disk too full for Astro's data store, and a check
// killed mid-crawl (SIGKILL, or SIGTERM as a cancelled CI job sends). After each, a build with the
// service down ships the last good comments whole, and so does one with Astro's data store
// deleted. The disk filled to each level while the comments are written is in full-disk.test.ts,
// on the loader's sync.
import { startMockServer, type MockServer } from "@astro-comments/mock-server";
import { spawn, execFileSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { astroBuild, BUILD_TIMEOUT_MS, listFiles } from "./helpers/astro-cli.ts";
import { serve } from "./helpers/servers.ts";
import { copySite, type SiteCopy } from "./helpers/site-copy.ts";
import { cannotMount, mountTmpfs, type Tmpfs } from "./helpers/tmpfs.ts";

const bin = fileURLToPath(new URL("../dist/cli/astro-comments.js", import.meta.url));
const NOBODY = 65534;

// The example site with its cache folder where AC_CACHE_DIR says (else Astro's default), and no
// retries: a build while the service is down falls back at once.
const config = `import { defineConfig } from "astro/config";
import comments from "astro-comments";

export default defineConfig({
  site: "https://example.com",
  ...(process.env.AC_CACHE_DIR ? { cacheDir: process.env.AC_CACHE_DIR } : {}),
  integrations: [comments({ retries: 0, orphans: "ignore" })],
});
`;

let mock: MockServer;
let site: SiteCopy;
let disk: Tmpfs;

beforeAll(() => {
  if (cannotMount) return;
  site = copySite("cache-folders");
  writeFileSync(join(site.dir, "astro.config.mjs"), config);
  // Beside the site, where another user can reach it (the test runner's temporary folder is private).
  disk = mountTmpfs(256 * 1_048_576, join(site.dir, ".."));
});
afterAll(async () => {
  disk?.unmount();
  site?.remove();
  await mock?.close();
});

/** What the built pages show of their comments: each page's comment anchors, in order. */
function shown(out: string): Record<string, string[]> {
  return Object.fromEntries(
    listFiles(out)
      .filter((file) => file.endsWith(".html"))
      .map((file) => [
        file.slice(out.length),
        [...readFileSync(file, "utf8").matchAll(/<article[^>]*data-comment id="([^"]+)"/g)].map((m) => m[1]!),
      ]),
  );
}

interface Build {
  code: number;
  log: string;
  pages: Record<string, string[]>;
}

/** `astro build` of the site with the service up or down, as root or (`asUser`) another user. */
async function build(cacheDir: string | undefined, up: boolean, asUser?: number): Promise<Build> {
  mock.setOutage(up ? "off" : "500");
  const env = {
    COMMENTS_DOMAIN: "example.com",
    COMMENTS_API_URL: mock.url,
    COMMENTS_API_TOKEN: mock.token,
    ...(cacheDir ? { AC_CACHE_DIR: cacheDir } : {}),
  };
  // In the site, which the other user owns when it builds.
  const out = join(mkdtempSync(join(site.dir, "out-")), "dist");
  const as = asUser === undefined ? [] : ["setpriv", `--reuid=${asUser}`, `--regid=${asUser}`, "--clear-groups"];
  try {
    const result = await astroBuild(env, out, site.dir, as);
    return { code: result.code, log: result.log, pages: result.code === 0 ? shown(out) : {} };
  } finally {
    mock.setOutage("off");
    rmSync(join(out, ".."), { recursive: true, force: true });
  }
}

const dataStore = (cacheDir: string) => join(cacheDir, "data-store.json");

let reference: Record<string, string[]>;

/** After a case: the service down, a build with Astro's store and one without it ship every comment. */
async function lastGoodShipsWhole(
  cacheDir: string,
  buildCacheDir = cacheDir === defaultCacheDir() ? undefined : cacheDir,
) {
  const withStore = await build(buildCacheDir, false);
  expect(withStore.code, withStore.log).toBe(0);
  expect(withStore.log).toMatch(/showing the comments as of /);
  expect(withStore.pages).toEqual(reference);
  rmSync(dataStore(cacheDir));
  const withoutStore = await build(buildCacheDir, false);
  expect(withoutStore.code, withoutStore.log).toBe(0);
  expect(withoutStore.pages).toEqual(reference);
}

const defaultCacheDir = () => join(site.dir, "node_modules/.astro");

/** A build that failed because it cannot write its cache: our line is the first error, with the folder, the code and the way out. */
function expectRefused(failed: Build, code: string) {
  expect(failed.code).not.toBe(0);
  const firstError = failed.log.split("\n").find((line) => /^\[\w+Error\]/.test(line));
  expect(firstError).toMatch(
    new RegExp(
      `^\\[CommentsConfigError\\] astro-comments: cannot write to the cache folder .*ci-cache/astro-comments(/modules)? \\(${code}\\), where this build must save the comments; make it writable by the user running the build, or set cacheDir in astro\\.config to a folder that is\\.$`,
    ),
  );
  expect(failed.log).not.toMatch(/Unhandled 'error' event|\n\s+at /);
}

/** Runs `run` with the disk faulty (`set`) and puts it right (`reset`) after, for the builds that follow. */
async function whileDisk<T>(set: () => void, reset: () => void, run: () => Promise<T>): Promise<T> {
  set();
  try {
    return await run();
  } finally {
    reset();
  }
}

/**
 * The first folder above `dir` that another user cannot pass through, or undefined. A checkout in
 * a private folder (as `mktemp -d` makes them) keeps that user from the site before our code runs.
 */
function closedToOthers(dir: string): string | undefined {
  for (let at = dirname(dir); ; at = dirname(at)) {
    const { mode, uid } = statSync(at);
    if (uid !== NOBODY && (mode & 0o001) === 0) return at;
    if (dirname(at) === at) return undefined;
  }
}

/** Runs `run` with the site the other user's, while the cache (and what is in it) stays root's. */
async function siteOfOtherUser<T>(run: () => Promise<T>): Promise<T> {
  execFileSync("chown", ["-R", `${NOBODY}:${NOBODY}`, site.dir]);
  chmodSync(site.dir, 0o755);
  try {
    return await run();
  } finally {
    execFileSync("chown", ["-R", "0:0", site.dir]);
  }
}

/**
 * One case of the table: `run`, then the two outage builds that must ship the last good comments
 * whole, then what `run` returned to check after them.
 */
function cacheCase(name: string, cacheDir: () => string, run: (context: TestContext) => Promise<void | (() => void)>) {
  it(
    name,
    async (context) => {
      const after = await run(context);
      await lastGoodShipsWhole(cacheDir());
      after?.();
    },
    4 * BUILD_TIMEOUT_MS,
  );
}

describe.skipIf(cannotMount !== undefined)("the cache folder on CI (real builds, real mounts)", () => {
  beforeAll(async () => {
    mock = await startMockServer({ dataset: { seed: 41, size: 800, paths: 2000 } });
  });

  cacheCase(
    "node_modules/.astro a symlink to another disk: builds with the service up, and down",
    defaultCacheDir,
    async () => {
      const target = join(disk.dir, "dot-astro");
      mkdirSync(target);
      mkdirSync(join(site.dir, "node_modules"), { recursive: true });
      symlinkSync(target, defaultCacheDir());
      const up = await build(undefined, true);
      expect(up.code, up.log).toBe(0);
      expect(up.log).not.toMatch(/UNRESOLVED_IMPORT|\[WARN\] \[astro-comments\]/);
      reference = up.pages;
      expect(Object.values(reference).flat().length).toBeGreaterThan(10);
    },
  );

  const linkedCacheDir = () => join(site.dir, "ci-cache");

  cacheCase("cacheDir a symlink to another disk: builds with the service up, and down", linkedCacheDir, async () => {
    // Deeper than the link: a path counted from the link's folder would point elsewhere.
    const target = join(disk.dir, "runner", "cache", "ci-cache");
    mkdirSync(target, { recursive: true });
    symlinkSync(target, linkedCacheDir());
    const up = await build(linkedCacheDir(), true);
    expect(up.code, up.log).toBe(0);
    expect(up.pages).toEqual(reference);
  });

  cacheCase(
    "a read-only cache: the build says so in its first line, with the folder and the way out; during an outage it ships the last good comments",
    linkedCacheDir,
    async () => {
      const [readOnly, readOnlyDown] = await whileDisk(
        () => disk.readOnly(true),
        () => disk.readOnly(false),
        async () => [await build(linkedCacheDir(), true), await build(linkedCacheDir(), false)],
      );
      expectRefused(readOnly, "EROFS");
      // During an outage, intact last good comments need no write: the build ships them.
      expect(readOnlyDown.code, readOnlyDown.log).toBe(0);
      expect(readOnlyDown.pages).toEqual(reference);
    },
  );

  cacheCase(
    "a cache folder the build's user cannot write (restored as root, built as another user)",
    linkedCacheDir,
    async ({ skip }) => {
      const closed = closedToOthers(site.dir);
      skip(closed !== undefined, `${closed} is closed to other users, so uid ${NOBODY} cannot reach the site at all`);
      expectRefused(await siteOfOtherUser(() => build(linkedCacheDir(), true, NOBODY)), "EACCES");
    },
  );

  cacheCase(
    "a full disk under Astro's data store: one line of ours says so before Astro's error",
    linkedCacheDir,
    async () => {
      const full = await whileDisk(
        () => disk.fill(4096),
        () => disk.unfill(),
        () => build(linkedCacheDir(), true),
      );
      expect(full.code).not.toBe(0);
      const lines = full.log.split("\n");
      const ours = lines.findIndex((line) =>
        /\[WARN\] \[astro-comments\] the disk holding the cache folder .*ci-cache has [\d,]+ KiB free, less than Astro's data store needs there/.test(
          line,
        ),
      );
      const astros = lines.findIndex((line) => line.startsWith("[UnknownFilesystemError]"));
      expect(ours, full.log).toBeGreaterThanOrEqual(0);
      expect(astros, full.log).toBeGreaterThan(ours);
      expect(full.log).not.toMatch(/Unhandled 'error' event/);
    },
  );

  cacheCase(
    "a check killed mid-crawl: SIGTERM removes its temporary file before it exits, SIGKILL's goes at the next build",
    linkedCacheDir,
    async () => {
      const cacheFolder = join(linkedCacheDir(), "astro-comments");
      const temporaries = () =>
        readdirSync(cacheFolder).filter((name) => /^check-crawl\.jsonl\.\d+\.\d+\.tmp$/.test(name));
      for (const signal of ["SIGTERM", "SIGKILL"] as const) {
        const { exit, written } = await checkStuckMidCrawl(linkedCacheDir());
        expect(written).toHaveLength(1);
        const ended = await exit(signal);
        expect(ended).toEqual({ code: null, signal });
        expect(temporaries()).toEqual(signal === "SIGTERM" ? [] : written);
      }
      // The builds after remove what SIGKILL left.
      return () => expect(temporaries()).toEqual([]);
    },
  );
});

/**
 * `astro-comments check`, stopped in the middle of its crawl: the first page is answered, every
 * later one is held. Resolves once the check has written its first page aside.
 */
async function checkStuckMidCrawl(cacheDir: string) {
  let held!: () => void;
  const later = new Promise<void>((resolve) => (held = resolve));
  const proxy = await serve(async (req, res) => {
    if (new URL(req.url ?? "/", "http://x").searchParams.get("page") !== "1") return held();
    const answer = await fetch(new URL(req.url ?? "/", mock.url), {
      headers: { authorization: req.headers.authorization ?? "" },
    });
    res.writeHead(answer.status, { "content-type": "application/json" }).end(Buffer.from(await answer.arrayBuffer()));
  });
  const child = spawn(
    process.execPath,
    [bin, "check", "--state", join(site.dir, "no-state.json"), "--cache-dir", cacheDir],
    {
      cwd: site.dir,
      env: {
        ...process.env,
        COMMENTS_DOMAIN: "example.com",
        COMMENTS_API_URL: proxy.url,
        COMMENTS_API_TOKEN: mock.token,
      },
      stdio: "ignore",
    },
  );
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  await later;
  // The first page is in once a later one is asked for; its line reaches the file as the stream opens it.
  const folder = join(cacheDir, "astro-comments");
  const pattern = new RegExp(`^check-crawl\\.jsonl\\.${child.pid}\\.1\\.tmp$`);
  let written: string[] = [];
  while (written.length === 0) {
    written = readdirSync(folder).filter((name) => pattern.test(name) && statSync(join(folder, name)).size > 0);
    if (written.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return {
    written,
    async exit(signal: NodeJS.Signals) {
      child.kill(signal);
      const ended = await exited;
      await proxy.close();
      return ended;
    },
  };
}

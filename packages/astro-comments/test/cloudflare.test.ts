// The runtime modes on Cloudflare Workers, end to end: a site built with @astrojs/cloudflare and
// run in workerd by `astro preview`, against the mock. The credentials are only where a Cloudflare
// user keeps them: the domain and URL in wrangler.jsonc `vars`, the token in .dev.vars (the local
// stand-in for a secret); the build reads them there too, and the test's own environment has none.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startMockServer, type MockServer } from "@astro-comments/mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { astroBuild, listFiles } from "./helpers/astro-cli.ts";
import { startAstroPreview, type NodeServer } from "./helpers/processes.ts";
import { islandUrl, recordingGet, section } from "./helpers/island-page.ts";
import { copySite, type SiteCopy } from "./helpers/site-copy.ts";

const DOMAIN = "empty.example";
const TOKEN = "tok-cloudflare-5d1e0b7a93";
const fixture = fileURLToPath(new URL("./fixtures/cloudflare-site/", import.meta.url));
/** The Node fixtures' pages, run unchanged in workerd: the fixture holds only what differs. */
const sharedFiles = {
  "live-site": ["src/live.config.mjs", "src/pages/live/[...slug].astro"],
  "island-site": ["src/pages/posts/island.astro"],
};
const wranglerBin = join(createRequire(import.meta.url).resolve("wrangler/package.json"), "..", "bin", "wrangler.js");

/**
 * What `wrangler deploy` would upload, measured 2026-11-27 with Astro 7.3.5, @astrojs/cloudflare
 * 14.3.3 and wrangler 4.164.0: 1809.6 KiB, 513.5 KiB gzipped (3012.5 KiB and 799.8 KiB while the
 * runtime modes sent with undici). The budget leaves room for small changes, not for an HTTP stack.
 */
const WORKER_BUDGET_KIB = { raw: 1_950, gzip: 560 };
/** The live loader's server chunk: 222 KiB (PrismJS, the sanitizer, the options' schema); 1432 KiB with undici. */
const LIVE_LOADER_CHUNK_BUDGET_KIB = 260;

/** The environment of the build and of `astro preview`: this process's, without any COMMENTS_*. */
const hostEnv = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("COMMENTS_")));

/** Writes the Worker's settings: the domain and URL as `vars`, the token in .dev.vars, as docs/server-island.md shows. */
function configureWorker(dir: string, apiUrl: string, compatibilityDate: string): void {
  const wrangler = {
    name: "comments-site",
    compatibility_date: compatibilityDate,
    vars: { COMMENTS_DOMAIN: DOMAIN, COMMENTS_API_URL: apiUrl },
  };
  writeFileSync(join(dir, "wrangler.jsonc"), `${JSON.stringify(wrangler, null, 2)}\n`);
  writeFileSync(join(dir, ".dev.vars"), `COMMENTS_API_TOKEN=${TOKEN}\n`);
}

interface Worker {
  site: SiteCopy;
  out: string;
  buildLog: string;
  server: NodeServer;
}

async function buildAndPreview(name: string, apiUrl: string, compatibilityDate: string): Promise<Worker> {
  const site = copySite(name, fixture);
  for (const [from, files] of Object.entries(sharedFiles))
    for (const file of files) {
      mkdirSync(dirname(join(site.dir, file)), { recursive: true });
      cpSync(fileURLToPath(new URL(`./fixtures/${from}/${file}`, import.meta.url)), join(site.dir, file));
    }
  configureWorker(site.dir, apiUrl, compatibilityDate);
  // astroBuild spreads process.env first: the empty values hide any COMMENTS_* of the test's own.
  const none = { COMMENTS_DOMAIN: "", COMMENTS_API_URL: "", COMMENTS_API_TOKEN: "" };
  const build = await astroBuild(none, join(site.dir, "dist"), site.dir);
  if (build.code !== 0) throw new Error(`the build failed:\n${build.log}`);
  const server = await startAstroPreview(site.dir, hostEnv());
  return { site, out: build.out, buildLog: build.log, server };
}

/** Every body and header the tests received: none may hold the token. */
const received: string[] = [];

const get = recordingGet(received);

/** `wrangler deploy --dry-run`'s totals for the built Worker, in KiB; what it would upload is written to `upload`. */
function dryRunTotals(out: string, upload: string): Promise<{ raw: number; gzip: number; log: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [wranglerBin, "deploy", "--dry-run", "--outdir", upload, "--config", join(out, "server", "wrangler.json")],
      { env: { ...hostEnv(), WRANGLER_SEND_METRICS: "false" } },
      (error, stdout, stderr) => {
        const log = `${stdout}${stderr}`;
        const totals = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(log);
        if (error || !totals) reject(new Error(`wrangler deploy --dry-run failed:\n${log}`));
        else resolve({ raw: Number(totals[1]), gzip: Number(totals[2]), log });
      },
    );
  });
}

let mock: MockServer | undefined;
let worker: Worker;
let pendingId: number;

beforeAll(async () => {
  mock = await startMockServer({ token: TOKEN, dataset: { seed: 33, size: 5 } });
  const add = (path: string, name: string, content: string, created_at: string) =>
    mock!.addComment({ domain: DOMAIN, path, name, content, created_at });
  const first = add("/posts/island/", "Before Build", "Here at build time", "2026-04-01T10:00:00.000000Z");
  mock.addComment({
    name: "A Reply",
    content: "Also at build time",
    replyTo: first.id,
    created_at: "2026-04-01T11:00:00.000000Z",
  });
  add("/posts/live", "Ann", "First on the live page", "2026-04-02T10:00:00.000000Z");
  add("/posts/live/", "Bob", "Second, stored with a slash", "2026-04-03T10:00:00.000000Z");
  pendingId = mock.addComment({
    domain: DOMAIN,
    path: "/posts/island",
    name: "After Build",
    content: "Approved after the build",
    status: "pending",
  }).id;
  worker = await buildAndPreview("cloudflare", mock.url, "2026-10-12");
}, 240_000);

afterAll(async () => {
  await worker?.server.close();
  await mock?.close();
  worker?.site.remove();
});

describe("a site on @astrojs/cloudflare, in workerd", () => {
  it("builds with the credentials only in wrangler.jsonc vars and .dev.vars", () => {
    expect(worker.buildLog).toContain(`fetching comments of ${DOMAIN} from ${mock!.url}/api/comments`);
    expect(worker.buildLog).toMatch(/\[astro-comments\] 4 comments on 2 pages/);
  });

  it("answers the island with 200 and the page's comments", async () => {
    const page = await get(worker.server.url, "/posts/island/");
    expect(page.body).toContain("Here at build time");
    const island = await get(worker.server.url, islandUrl(page.body));
    expect(island.status).toBe(200);
    expect(island.headers.get("cache-control")).toBe("public, s-maxage=60");
    expect(section(island.body)).toBe(section(page.body));
  });

  it("shows on the live page every approved comment of the page", async () => {
    const live = await get(worker.server.url, "/live/posts/live");
    expect(live.status).toBe(200);
    expect(live.body).toContain("data-comments-total>(2)<");
    expect(live.body).toContain("First on the live page");
    expect(live.body).toContain("Second, stored with a slash");
  });

  it("shows a comment approved after the build, with no rebuild, in the island and the live page", async () => {
    expect(mock!.approve(pendingId)).toBeDefined();
    const page = await get(worker.server.url, "/posts/island/");
    expect(page.body).not.toContain("Approved after the build");
    const island = await get(worker.server.url, islandUrl(page.body));
    expect(island.status).toBe(200);
    expect(island.body).toContain("Approved after the build");
    expect(island.body).toContain("data-comments-total>(3)<");
    const live = await get(worker.server.url, "/live/posts/island");
    expect(live.body).toContain("Approved after the build");
  });

  it(`fits the Worker in ${WORKER_BUDGET_KIB.gzip} KiB gzipped, with no HTTP stack and no node:* module`, async () => {
    const totals = await dryRunTotals(worker.out, join(worker.site.dir, "upload"));
    console.log(`the Worker: ${totals.raw} KiB, ${totals.gzip} KiB gzipped (wrangler deploy --dry-run)`);
    expect(totals.raw).toBeLessThanOrEqual(WORKER_BUDGET_KIB.raw);
    expect(totals.gzip).toBeLessThanOrEqual(WORKER_BUDGET_KIB.gzip);
    const modules = listFiles(join(worker.out, "server")).filter((file) => file.endsWith(".mjs"));
    const chunk = modules.find((file) => /[\\/]live-loader_[^\\/]+\.mjs$/.test(file));
    expect(chunk).toBeDefined();
    expect(readFileSync(chunk!).length / 1024).toBeLessThanOrEqual(LIVE_LOADER_CHUNK_BUDGET_KIB);
    for (const file of modules) {
      const code = readFileSync(file, "utf8");
      // undici's parser (llhttp) and its dispatcher; and any node:* import, which older dates refuse.
      expect(code, file).not.toMatch(/llhttp|new Agent\(/);
      expect(code, file).not.toMatch(/from\s*["']node:/);
    }
  });

  it("keeps the build's comments in the page, and the live page says why, when the API is stopped", async () => {
    await mock!.close();
    mock = undefined;
    const page = await get(worker.server.url, "/posts/island/");
    expect(page.body).toContain("Here at build time");
    const island = await get(worker.server.url, islandUrl(page.body));
    expect(island.status).toBe(503);
    expect(island.headers.get("cache-control")).toBe("no-store");
    // The real cause: the API did not answer (not the runtime, not the configuration).
    expect(island.headers.get("x-comments-failure")).toBe("network");
    expect(island.body).toBe("");
    const live = await get(worker.server.url, "/live/posts/island");
    expect(live.status).toBe(502);
    expect(live.body).toMatch(
      /^Comments unavailable: astro-comments: the comments API did not answer: the connection failed before the response: Network connection lost; gave up after 2 attempts /,
    );
    expect(live.body).not.toMatch(/WebAssembly|Wasm/);
    // undici's debug lines ("FETCH: connecting to …") came with it into the Worker's log.
    expect(worker.server.log()).not.toContain("FETCH:");
  });

  it("leaves the token out of the Worker and out of every response", () => {
    // The Cloudflare Vite plugin copies .dev.vars next to the built Worker for local runs
    // (astro preview, wrangler dev). No other file has the token, and nothing that wrangler deploy
    // would upload (the dry run's output, after the budget test) has it.
    const holding = listFiles(worker.out).filter((file) => readFileSync(file).includes(TOKEN));
    expect(holding).toEqual([join(worker.out, "server", ".dev.vars")]);
    const upload = listFiles(join(worker.site.dir, "upload"));
    expect(upload.some((file) => file.endsWith("entry.mjs"))).toBe(true);
    for (const file of upload) expect(readFileSync(file).includes(TOKEN), file).toBe(false);
    expect(received.length).toBeGreaterThan(10);
    for (const text of received) expect(text).not.toContain(TOKEN);
  });
});

// Before nodejs_compat was on by default, and with no compatibility flag: the runtime modes import
// no node:* module and send with fetch(), so they run there too (undici failed here with
// "MessagePort is not defined", and node:crypto with "No such module").
describe("a site on @astrojs/cloudflare with compatibility date 2025-03-01 and no flags", () => {
  let api: MockServer;
  let old: Worker | undefined;
  beforeAll(async () => {
    api = await startMockServer({ token: TOKEN, dataset: { seed: 34, size: 5 } });
    api.addComment({ domain: DOMAIN, path: "/posts/island/", name: "Old Date", content: "Shown on an old date" });
    old = await buildAndPreview("cloudflare-2025", api.url, "2025-03-01");
  }, 240_000);
  afterAll(async () => {
    await old?.server.close();
    await api?.close();
    old?.site.remove();
  });

  it("answers the island and the live page with the API's comments", async () => {
    api.addComment({ domain: DOMAIN, path: "/posts/island", name: "Late", content: "Approved on an old date" });
    const page = await get(old!.server.url, "/posts/island/");
    const island = await get(old!.server.url, islandUrl(page.body));
    expect(island.status).toBe(200);
    expect(island.body).toContain("Approved on an old date");
    const live = await get(old!.server.url, "/live/posts/island");
    expect(live.status).toBe(200);
    expect(live.body).toContain("data-comments-total>(2)<");
  });
});

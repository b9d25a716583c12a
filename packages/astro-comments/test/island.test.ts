/// <reference lib="dom" />
// <CommentsIsland>, end to end: a real `astro build` of a site whose post page is prerendered with
// the island, served by the Node adapter's standalone server on 127.0.0.1, read with plain HTTP and
// in Chromium. The build's comments are in the page; a comment approved after the build shows with
// no rebuild; with the API stopped the build's comments stay, with no error text.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startMockServer, type MockServer } from "@astro-comments/mock-server";
import { type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { astroBuild, listFiles } from "./helpers/astro-cli.ts";
import { chromiumMissing, chromiumPath, chromiumRequired, launchChromium } from "./helpers/chromium.ts";
import { startNodeServer, type NodeServer } from "./helpers/processes.ts";
import { islandUrl, recordingGet, section } from "./helpers/island-page.ts";
import { copySite, type SiteCopy } from "./helpers/site-copy.ts";

const DOMAIN = "empty.example";
const TOKEN = "tok-island-7f3a9c21e5";
const PAGE = "/posts/island/";
const CACHE_CONTROL = "public, s-maxage=60";
const fixture = fileURLToPath(new URL("./fixtures/island-site/", import.meta.url));
const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

let mock: MockServer | undefined;
/** A comment waiting for moderation at build time, approved by a test. */
let pendingId: number;
let site: SiteCopy;
let server: NodeServer | undefined;
let browser: Browser | undefined;
let base: string;
let out: string;
/** Every body and header the tests received, from the server or in Chromium: none may hold the token. */
const received: string[] = [];

const read = recordingGet(received);
const get = (path: string) => read(base, path);

// Counts island fetches that settled, one macrotask after the island script saw the response, so
// by then Astro's replaceServerIsland has decided whether to swap. Layout shifts are summed too.
const initScript = `
  window.__islands = 0;
  window.__shift = 0;
  const original = window.fetch;
  window.fetch = (...args) => {
    const answer = original(...args);
    if (String(args[0]).includes("/_server-islands/")) answer.finally(() => setTimeout(() => window.__islands++, 0));
    return answer;
  };
  new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__shift += entry.value; }).observe({ type: "layout-shift", buffered: true });
`;

interface Visit {
  page: Page;
  consoleErrors: string[];
  /** Reads every response's headers and body into `received` first, then closes the page's context. */
  close(): Promise<void>;
}

/** Opens the page in a fresh context (no browser cache) and waits until the island was answered and, on a 200, swapped in. */
async function visit(options: { javaScript?: boolean } = {}): Promise<Visit> {
  const context = await browser!.newContext({
    viewport: { width: 1280, height: 900 },
    javaScriptEnabled: options.javaScript ?? true,
  });
  await context.addInitScript(initScript);
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  // Each response is read before the context closes: a read still running then would be lost to
  // the token check, and reject after the test (seen on a busy machine). A response that only
  // arrives while the context is closing cannot be read any more; its failure is not an error.
  const reads: Promise<void>[] = [];
  page.on("response", (response) => {
    reads.push(
      Promise.all([response.allHeaders(), response.text().catch(() => "")]).then(
        ([headers, body]) => void received.push(JSON.stringify(headers), body),
        () => undefined,
      ),
    );
  });
  const response = await page.goto(new URL(PAGE, base).href, { waitUntil: "load" });
  expect(response?.status()).toBe(200);
  if (options.javaScript ?? true) {
    await page.waitForFunction(() => (window as unknown as { __islands: number }).__islands > 0);
  }
  const close = async () => {
    // Reads can start while earlier ones are awaited: wait until none is left.
    for (let settled = 0; settled < reads.length; settled = reads.length) await Promise.all(reads.slice(settled));
    await context.close();
  };
  return { page, consoleErrors, close };
}

const sectionBox = (page: Page) =>
  page.evaluate(() => JSON.stringify(document.querySelector("[data-comments]")!.getBoundingClientRect()));
const commentIds = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll("[data-comment]")].map((element) => element.id));

// Astro fails the build of a site without an adapter when it compiles any component holding
// server:defer, and every site imports astro-comments/components.
describe("astro-comments/components", () => {
  it("reaches no component that holds a server island", () => {
    const components = new URL("../components/", import.meta.url);
    const imported = [
      ...readFileSync(new URL("index.ts", components), "utf8").matchAll(/from "\.\/([^"]+\.astro)"/g),
    ].map((match) => match[1]!);
    expect(imported).toEqual(expect.arrayContaining(["Comments.astro", "CommentCount.astro", "CommentsJsonLd.astro"]));
    for (const file of imported)
      expect(readFileSync(new URL(file, components), "utf8"), file).not.toContain("server:defer");
    expect(readFileSync(new URL("CommentsIsland.astro", components), "utf8")).toContain("server:defer");
  });
});

const skipped = chromiumMissing !== undefined && !chromiumRequired;
if (skipped) console.warn(chromiumMissing);

describe.skipIf(skipped)("<CommentsIsland> on the Node adapter's server", () => {
  beforeAll(async () => {
    if (!chromiumPath) throw new Error(chromiumMissing);
    mock = await startMockServer({ token: TOKEN, dataset: { seed: 26, size: 5 } });
    const first = mock.addComment({
      domain: DOMAIN,
      path: PAGE,
      name: "Before Build",
      content: "Here at build time",
      created_at: "2026-04-01T10:00:00.000000Z",
    });
    mock.addComment({
      name: "A Reply",
      content: "Also at build time",
      replyTo: first.id,
      created_at: "2026-04-01T11:00:00.000000Z",
    });
    mock.addComment({
      domain: DOMAIN,
      path: "/old-island/",
      name: "Old Address",
      content: "Left on the old URL",
      created_at: "2026-04-01T12:00:00.000000Z",
    });
    pendingId = mock.addComment({
      domain: DOMAIN,
      path: "/posts/island",
      name: "After Build",
      content: "Approved after the build",
      status: "pending",
    }).id;
    site = copySite("island", fixture);
    const env = { COMMENTS_DOMAIN: DOMAIN, COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: TOKEN };
    const build = await astroBuild(env, join(site.dir, "dist"), site.dir);
    if (build.code !== 0) throw new Error(`the build failed:\n${build.log}`);
    out = build.out;
    server = await startNodeServer(join(out, "server", "entry.mjs"), { ...process.env, ...env });
    base = server.url;
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await mock?.close();
    site?.remove();
  });

  it("puts the build's comments in the page's HTML, for a client without JavaScript", async () => {
    const page = await get(PAGE);
    expect(page.status).toBe(200);
    expect(page.body).toContain("Here at build time");
    expect(page.body).toContain("Also at build time");
    expect(page.body).toContain("Left on the old URL");
    expect(page.body).toContain("data-comments-total>(3)<");
    // Fetched with a GET (the props fit in the URL), which a CDN can cache.
    expect(islandUrl(page.body)).toMatch(/^\/_server-islands\/CommentsIslandSection\?e=/);
  });

  it("answers the island with the same section as the fallback, and the documented Cache-Control", async () => {
    const page = await get(PAGE);
    const island = await get(islandUrl(page.body));
    expect(island.status).toBe(200);
    expect(island.headers.get("content-type")).toBe("text/html");
    expect(island.headers.get("cache-control")).toBe(CACHE_CONTROL);
    expect(island.headers.get("cdn-cache-control")).toBe("public, max-age=60, stale-while-revalidate=600");
    expect(island.headers.get("cache-tag")).toBe("comments:/posts/island");
    expect(section(island.body)).toBe(section(page.body));
  });

  it("shifts nothing when the island's comments equal the build's", async () => {
    const withoutScript = await visit({ javaScript: false });
    const fallbackBox = await sectionBox(withoutScript.page);
    await withoutScript.close();

    const { page, consoleErrors, close } = await visit();
    await page.waitForFunction(() => document.querySelector("script[data-island-id]") === null);
    expect(await sectionBox(page)).toBe(fallbackBox);
    expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBe(0);
    expect(consoleErrors).toEqual([]);
    await close();
  });

  it("shows a comment approved after the build, with no rebuild, on a reload of the page too, and passes axe", async () => {
    const { page, consoleErrors, close } = await visit();
    await page.waitForFunction(() => document.querySelector("script[data-island-id]") === null);
    const buildIds = await commentIds(page);
    expect(buildIds).toHaveLength(3);

    expect(mock!.approve(pendingId)).toBeDefined();
    // The same browser, its HTTP cache holding the island of the first view: it must not show that
    // copy (it would with stale-while-revalidate in Cache-Control). The init script counts anew.
    await page.reload({ waitUntil: "load" });
    await page.waitForFunction(
      () =>
        (window as unknown as { __islands: number }).__islands > 0 &&
        document.querySelector("script[data-island-id]") === null,
    );
    const text = await page.locator("[data-comments]").innerText();
    expect(text).toContain("Approved after the build");
    expect(text).toContain("(4)");
    expect(text).toContain("Left on the old URL");
    const ids = await commentIds(page);
    expect(ids).toHaveLength(4);
    expect(ids).toEqual(expect.arrayContaining(buildIds));
    expect(consoleErrors).toEqual([]);

    await page.addScriptTag({ path: axePath });
    const { violations, passed } = await page.evaluate(async () => {
      type Result = { id: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> };
      const axe = (
        window as unknown as {
          axe: { run: (context: Document) => Promise<{ violations: Result[]; passes: Result[] }> };
        }
      ).axe;
      const results = await axe.run(document);
      return {
        violations: results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(" ")}`),
        passed: results.passes.map((p) => p.id),
      };
    });
    expect(violations).toEqual([]);
    expect(passed).toEqual(
      expect.arrayContaining(["color-contrast", "link-name", "list", "listitem", "heading-order"]),
    );
    await close();
  });

  it("gives up on an API that hangs within the live loader's 15 s, with a 503 that no cache keeps", async () => {
    const url = islandUrl((await get(PAGE)).body);
    mock!.setOutage("hang");
    try {
      // No stopwatch: a 503 saying "timeout" is the island's own 8 s budget ending the hang; the
      // test's 30 s timeout catches an island that waits for ever.
      const island = await get(url);
      expect(island.status).toBe(503);
      expect(island.headers.get("cache-control")).toBe("no-store");
      expect(island.headers.get("x-comments-failure")).toBe("timeout");
    } finally {
      mock!.setOutage("off");
    }
  }, 30_000);

  it("keeps the build's comments, and shows no error, when the API is stopped", async () => {
    const withoutScript = await visit({ javaScript: false });
    const fallback = await withoutScript.page.locator("[data-comments]").innerText();
    await withoutScript.close();
    await mock!.close();
    mock = undefined;

    const island = await get(islandUrl((await get(PAGE)).body));
    expect(island.status).toBe(503);
    expect(island.headers.get("cache-control")).toBe("no-store");
    expect(island.headers.get("x-comments-failure")).toBe("network");
    expect(island.body).toBe("");

    const { page, close } = await visit();
    const text = await page.locator("main").innerText();
    expect(text).toContain("Here at build time");
    expect(text).not.toContain("Approved after the build");
    expect(text).not.toMatch(/error|unavailable|503|failed/i);
    expect(await page.locator("[data-comments]").innerText()).toBe(fallback);
    await close();
  });

  it("leaves the token out of dist/ and out of every response", () => {
    for (const file of listFiles(out)) expect(readFileSync(file).includes(TOKEN), file).toBe(false);
    expect(received.length).toBeGreaterThan(10);
    for (const text of received) expect(text).not.toContain(TOKEN);
  });
});

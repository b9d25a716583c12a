// The mock's page as a site's developer meets it: comments-mock installed by name from the run's
// registry, its second line's link opened in Chromium. Everything the page does is checked through
// the API a build reads (GET /api/comments) or the admin CLI, the actions run with JavaScript off
// (plain forms), axe-core finds nothing in light and dark, and the security model holds: no change
// without the session cookie, from another Origin or through another Host; a sign-in key works
// once; the token shows up in no page.
import { execFile } from "node:child_process";
import { request } from "node:http";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { CommentListResponse, CommentThread } from "@astro-comments/schema";
import { type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  chromiumMissing,
  chromiumPath,
  launchChromium,
  chromiumRequired,
} from "../../packages/astro-comments/test/helpers/chromium.ts";
import { npm, writeSite } from "../../packages/astro-comments/test/helpers/pack-sites.ts";
import { spec } from "../../packages/astro-comments/test/helpers/registry.ts";
import { freePort, start, type Started } from "./pack-helpers.ts";

const TOKEN = "tok-page-5d1e9a7c3b";
const DOMAIN = "my-site.test";
const PATHS = ["/", "/posts/first-post", "/posts/second-post"];
const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const screenshots = fileURLToPath(new URL("../../docs/screenshots/", import.meta.url));

const skipped = chromiumMissing !== undefined && !chromiumRequired;
if (skipped) console.warn(chromiumMissing);

let work: string;
let app: string;
let mock: Started;
let base: string;
let signIn: string;
let browser: Browser;
const contexts: BrowserContext[] = [];
const execFileAsync = promisify(execFile);

/** The mock's own admin CLI, from the installed package. */
const admin = async (...args: string[]) =>
  (
    await execFileAsync(process.execPath, [
      join(app, "node_modules/@astro-comments/mock-server/dist/cli/comments-mock.js"),
      "admin",
      "--url",
      base,
      "--token",
      TOKEN,
      ...args,
    ])
  ).stdout;

/** Every thread the API serves on a page of the site, all its pages read. */
async function served(path: string): Promise<CommentThread[]> {
  const threads: CommentThread[] = [];
  for (let page = 1, last = 1; page <= last; page++) {
    const response = await fetch(
      `${base}/api/comments?domain=${DOMAIN}&path=${encodeURIComponent(path)}&per_page=100&page=${page}`,
      { headers: { authorization: `Bearer ${TOKEN}` } },
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as CommentListResponse;
    threads.push(...body.data);
    last = body.meta.last_page;
  }
  return threads;
}

/** A plain HTTP request with exactly these headers (fetch would not send a foreign Host). */
function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body = "",
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      { method, headers: { ...headers, "content-length": Buffer.byteLength(body) } },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** A session of its own: a fresh sign-in link from the admin CLI, spent without a browser. */
async function sessionCookie(): Promise<string> {
  const { url } = JSON.parse(await admin("sign-in")) as { url: string };
  const answer = await raw("GET", new URL(url).pathname + new URL(url).search, {});
  expect(answer.status).toBe(303);
  return String(answer.headers["set-cookie"]).split(";")[0]!;
}

async function open(
  options: { javaScript?: boolean; colorScheme?: "light" | "dark"; width?: number; bypassCSP?: boolean } = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: 900 },
    colorScheme: options.colorScheme ?? "light",
    javaScriptEnabled: options.javaScript ?? true,
    // Only to inject axe-core; the page's own CSP is checked on its own.
    bypassCSP: options.bypassCSP ?? false,
  });
  contexts.push(context);
  return context.newPage();
}

/** A new browser signed in through a fresh one-time link. */
async function signedIn(options: Parameters<typeof open>[0] = {}): Promise<Page> {
  const page = await open(options);
  const { url } = JSON.parse(await admin("sign-in")) as { url: string };
  const response = await page.goto(url);
  expect(response?.status()).toBe(200);
  expect(page.url()).toBe(`${base}/__mock/`);
  return page;
}

async function addOnPage(
  page: Page,
  fields: { path?: string; name: string; content: string; html?: string; pending?: boolean },
): Promise<void> {
  if (fields.path !== undefined) await page.getByLabel(/^Path/).fill(fields.path);
  await page.getByLabel("Name", { exact: true }).fill(fields.name);
  await page.getByLabel("Content", { exact: true }).fill(fields.content);
  if (fields.html !== undefined) await page.getByLabel("Raw html").fill(fields.html);
  if (fields.pending) await page.getByLabel("pending", { exact: true }).check();
  await Promise.all([page.waitForURL(/\/__mock\//), page.getByRole("button", { name: /^Add the comment/ }).click()]);
  await expect(page.getByRole("status").textContent()).resolves.toContain(`by ${fields.name}`);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "comments-mock-page-"));
  app = join(work, "app");
  writeSite(app, { "package.json": `${JSON.stringify({ name: "app", private: true }, null, 2)}\n` });
  const install = await npm(["install", "--prefer-offline", spec("mock-server")], app);
  expect(install.code, install.output).toBe(0);
  const port = await freePort();
  mock = start(
    process.execPath,
    [
      "node_modules/@astro-comments/mock-server/dist/cli/comments-mock.js",
      "--domain",
      DOMAIN,
      "--paths",
      PATHS.join(","),
      "--size",
      "6",
      "--seed",
      "3",
      "--token",
      TOKEN,
      "--port",
      String(port),
    ],
    app,
  );
  signIn = (await mock.waitFor(/^Page \(signed in; the link works once\): (http\S+)$/m))[1]!;
  base = `http://127.0.0.1:${port}`;
  if (!skipped) {
    if (!chromiumPath) throw new Error(chromiumMissing);
    browser = await launchChromium();
  }
}, 10 * 60_000);

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await mock?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
}, 60_000);

describe("the printed link", { timeout: 120_000 }, () => {
  it("is the line after the documented first line, which keeps its form", () => {
    const [first, second] = mock.stdout().split("\n");
    expect(first).toBe(`Comments API mock listening on ${base} token=${TOKEN} domains=${DOMAIN}`);
    expect(second).toBe(`Page (signed in; the link works once): ${signIn}`);
  });

  it.skipIf(skipped)("opens the page signed in, with an HttpOnly SameSite=Strict cookie, and works once", async () => {
    const page = await open();
    const response = await page.goto(signIn);
    expect(response?.status()).toBe(200);
    // The key leaves the address bar (and the history) at once.
    expect(page.url()).toBe(`${base}/__mock/`);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Comments mock");
    const cookies = await page.context().cookies();
    expect(cookies).toEqual([
      expect.objectContaining({ httpOnly: true, sameSite: "Strict", path: "/", secure: false }),
    ]);

    const again = await open();
    expect((await again.goto(signIn))?.status()).toBe(403);
    expect(await again.context().cookies()).toEqual([]);
    expect((await again.goto(`${base}/__mock/`))?.status()).toBe(401);
  });
});

describe.skipIf(skipped)("with JavaScript off, the page's forms", { timeout: 120_000 }, () => {
  it("add a comment on a site page, served by GET /api/comments at once, and a reply to it", async () => {
    const page = await signedIn({ javaScript: false });
    await expect(page.getByRole("cell", { name: "/posts/second-post" }).count()).resolves.toBe(1);
    const before = await served("/posts/second-post");
    await addOnPage(page, {
      path: "/posts/second-post",
      name: "Paged Ann",
      content: "Long body\n\nwith <code>x</code>",
    });
    const after = await served("/posts/second-post");
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)).toMatchObject({
      name: "Paged Ann",
      content: "Long body\n\nwith <code>x</code>",
      html: expect.stringContaining("&lt;code&gt;"),
    });

    // The page of that path, then a reply from it, with raw html as given.
    await page.getByRole("link", { name: "/posts/second-post" }).click();
    await page.getByRole("link", { name: "Reply to Paged Ann" }).click();
    await expect(page.locator("#replyTo option:checked").textContent()).resolves.toMatch(/^\d+: Paged Ann$/);
    await page.getByLabel("Name", { exact: true }).fill("Replying Bo");
    await page.getByLabel("Content", { exact: true }).fill("hostile");
    await page.getByLabel("Raw html").fill('<img src=x onerror="alert(1)">');
    await Promise.all([
      page.waitForURL(/\/__mock\/page\?/),
      page.getByRole("button", { name: "Add the comment" }).click(),
    ]);
    expect((await served("/posts/second-post")).at(-1)!.children.at(-1)).toMatchObject({
      name: "Replying Bo",
      html: '<img src=x onerror="alert(1)">',
    });
    // Shown as source, not as markup.
    await expect(page.locator("img").count()).resolves.toBe(0);
  });

  it("approve a pending comment, which the API then serves", async () => {
    const page = await signedIn({ javaScript: false });
    await addOnPage(page, { path: "/posts/first-post", name: "Held Cy", content: "wait for me", pending: true });
    expect((await served("/posts/first-post")).map((c) => c.name)).not.toContain("Held Cy");
    await page.getByRole("link", { name: "/posts/first-post" }).click();
    await Promise.all([
      page.waitForURL(/\/__mock\/page\?/),
      page.getByRole("button", { name: /^Approve comment \d+ by Held Cy$/ }).click(),
    ]);
    await expect(page.getByRole("status").textContent()).resolves.toMatch(/approved comment \d+ by Held Cy/);
    expect((await served("/posts/first-post")).map((c) => c.name)).toContain("Held Cy");
  });

  it("switch an outage on, which the API meets as after the admin CLI's, and off", async () => {
    const page = await signedIn({ javaScript: false });
    const failure = () =>
      served("/").then(
        () => "served",
        (error: Error) => String((error.cause as NodeJS.ErrnoException | undefined)?.code ?? error.message),
      );

    await page.getByLabel("down", { exact: true }).check();
    await Promise.all([page.waitForURL(/\/__mock\//), page.getByRole("button", { name: "Switch the outage" }).click()]);
    await expect(page.getByText("(now: down)").count()).resolves.toBe(1);
    const fromPage = await failure();
    expect(fromPage).not.toBe("served");
    await page.getByLabel("off", { exact: true }).check();
    await Promise.all([page.waitForURL(/\/__mock\//), page.getByRole("button", { name: "Switch the outage" }).click()]);
    expect(await failure()).toBe("served");

    await admin("outage", "down");
    expect(await failure()).toBe(fromPage);
    await admin("outage", "off");
    expect(await failure()).toBe("served");
  });

  it("switch faults: a rate limit of 1 answers the second request 429, until switched off", async () => {
    const page = await signedIn({ javaScript: false });
    await page.getByLabel("Rate limit", { exact: false }).first().fill("1");
    await Promise.all([page.waitForURL(/\/__mock\//), page.getByRole("button", { name: "Switch the faults" }).click()]);
    await expect(page.getByRole("status").textContent()).resolves.toContain("rate limit 1 per 60000 ms");
    const get = () =>
      fetch(`${base}/api/comments?domain=${DOMAIN}`, { headers: { authorization: `Bearer ${TOKEN}` } }).then(
        (r) => r.status,
      );
    expect([await get(), await get()]).toEqual([200, 429]);
    await page.getByLabel("Rate limit", { exact: false }).first().fill("");
    await Promise.all([page.waitForURL(/\/__mock\//), page.getByRole("button", { name: "Switch the faults" }).click()]);
    expect(await get()).toBe(200);
  });
});

describe.skipIf(skipped)("the page in Chromium", { timeout: 120_000 }, () => {
  it("lists the requests the mock answered, refreshed by its script, without the Authorization header", async () => {
    const page = await signedIn();
    await fetch(`${base}/api/comments?domain=${DOMAIN}&per_page=3&marker=log`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    // The script's refresh brings the row in; waiting for it is the signal.
    const row = page.locator("#requests tr", { hasText: "marker=log" });
    await row.waitFor({ timeout: 20_000 });
    await expect(row.textContent()).resolves.toMatch(
      /GET.*\/api\/comments\?domain=my-site\.test&per_page=3&marker=log.*200/,
    );
  });

  it("is readable at 390 px wide, and screenshots of it land in docs/screenshots", async () => {
    mkdirSync(screenshots, { recursive: true });
    const wide = await signedIn({ width: 1000 });
    await wide.screenshot({ path: join(screenshots, "mock-page-light.png") });
    for (const colorScheme of ["light", "dark"] as const) {
      const phone = await signedIn({ width: 390, colorScheme });
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await phone.goto(`${base}/__mock/page?domain=${DOMAIN}&path=${encodeURIComponent("/posts/second-post")}`);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      if (colorScheme === "dark") await phone.screenshot({ path: join(screenshots, "mock-page-phone-dark.png") });
    }
  });

  it.each(["light", "dark"] as const)("axe-core finds no violation on any view (%s)", async (colorScheme) => {
    const views = [
      "/__mock/",
      `/__mock/page?domain=${DOMAIN}&path=${encodeURIComponent("/posts/second-post")}`,
      `/__mock/page?domain=${DOMAIN}&path=%2F`,
    ];
    const page = await signedIn({ colorScheme, bypassCSP: true });
    const signedOut = await open({ colorScheme, bypassCSP: true });
    const check = async (target: Page, path: string) => {
      await target.goto(`${base}${path}`);
      await target.addScriptTag({ path: axePath });
      const violations = await target.evaluate(async () => {
        const axe = (
          window as unknown as {
            axe: {
              run: (
                context: Document,
              ) => Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown[] }> }> }>;
            };
          }
        ).axe;
        return (await axe.run(document)).violations.map(
          (v) => `${v.id}: ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`,
        );
      });
      expect(violations, `${path} (${colorScheme})`).toEqual([]);
    };
    for (const view of views) await check(page, view);
    // A flash message, and the page a signed-out visitor gets.
    await page.goto(`${base}/__mock/`);
    await page.getByLabel("Name", { exact: true }).fill("Axe");
    await page.getByLabel("Content", { exact: true }).fill("checked");
    await page.getByLabel(/^Path/).fill("/");
    await Promise.all([page.waitForURL(/\/__mock\//), page.getByRole("button", { name: "Add the comment" }).click()]);
    await check(page, "/__mock/");
    await check(signedOut, "/__mock/");
  });

  it("runs no script but its own: the CSP blocks an injected one", async () => {
    const page = await signedIn();
    const blocked = await page.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "window.__ran = true";
      document.body.append(script);
      return !(window as unknown as { __ran?: boolean }).__ran;
    });
    expect(blocked).toBe(true);
  });
});

describe("security", { timeout: 120_000 }, () => {
  const form = (fields: Record<string, string>) => new URLSearchParams({ back: "/__mock/", ...fields }).toString();
  const addBody = form({ domain: DOMAIN, path: "/posts/first-post", name: "Intruder", content: "x" });
  const formHeaders = { "content-type": "application/x-www-form-urlencoded" };
  const names = async () => (await served("/posts/first-post")).map((c) => c.name);

  it("refuses a change without the session cookie, from a foreign or missing Origin, or through another Host, and changes nothing", async () => {
    const cookie = await sessionCookie();
    const host = new URL(base).host;
    const attempts: Array<[string, Record<string, string>, number]> = [
      ["no cookie", { host, origin: base }, 403],
      ["a made-up cookie", { host, origin: base, cookie: `${cookie.split("=")[0]}=forged` }, 403],
      ["a foreign Origin", { host, origin: "http://evil.example", cookie }, 403],
      ["no Origin", { host, cookie }, 403],
      ["Origin null", { host, origin: "null", cookie }, 403],
      [
        "a DNS-rebound Host",
        { host: `evil.example:${new URL(base).port}`, origin: `http://evil.example:${new URL(base).port}`, cookie },
        421,
      ],
    ];
    for (const [what, headers, status] of attempts) {
      const add = await raw("POST", "/__mock/comments", { ...formHeaders, ...headers }, addBody);
      expect(add.status, what).toBe(status);
      const outage = await raw("POST", "/__mock/outage", { ...formHeaders, ...headers }, form({ mode: "down" }));
      expect(outage.status, what).toBe(status);
    }
    expect(await names()).not.toContain("Intruder");
    expect((await served("/")).length).toBeGreaterThan(0); // no outage either
    // A rebound name cannot read the page either.
    const read = await raw("GET", "/__mock/", { host: `evil.example:${new URL(base).port}`, cookie });
    expect(read.status).toBe(421);
    expect(read.body).not.toContain("my-site.test");

    // The same cookie and the page's own Origin do change it: the refusals were the checks.
    const allowed = await raw("POST", "/__mock/comments", { ...formHeaders, host, origin: base, cookie }, addBody);
    expect(allowed.status).toBe(303);
    expect(await names()).toContain("Intruder");
  });

  it("spends a sign-in key once, and a wrong key gets nothing", async () => {
    const { url } = JSON.parse(await admin("sign-in")) as { url: string };
    const target = new URL(url).pathname + new URL(url).search;
    expect((await raw("GET", target, {})).status).toBe(303);
    const second = await raw("GET", target, {});
    expect(second.status).toBe(403);
    expect(second.headers["set-cookie"]).toBeUndefined();
    const wrong = await raw("GET", `${target.slice(0, -1)}${target.endsWith("A") ? "B" : "A"}`, {});
    expect(wrong.status).toBe(403);
  });

  it("shows the API token in no page, not even after requests that carried it", async () => {
    const cookie = await sessionCookie();
    await served("/posts/first-post");
    const views = [
      "/__mock/",
      "/__mock/requests",
      `/__mock/page?domain=${DOMAIN}&path=%2Fposts%2Ffirst-post`,
      "/__mock/nothing-here",
    ];
    for (const view of views) {
      const answer = await raw("GET", view, { cookie });
      expect(answer.status, view).toBeLessThan(500);
      expect(answer.body, view).not.toContain(TOKEN);
    }
    for (const view of ["/__mock/", `/__mock/?key=wrong`])
      expect((await raw("GET", view, {})).body).not.toContain(TOKEN);
    expect((await raw("GET", "/__mock/requests", { cookie })).body).toContain("/api/comments?domain=my-site.test");
  });

  it("is off on --host 0.0.0.0 unless --ui, which warns", async () => {
    const bin = join(app, "node_modules/@astro-comments/mock-server/dist/cli/comments-mock.js");
    const off = start(process.execPath, [bin, "--host", "0.0.0.0", "--port", "0", "--size", "5"], app);
    const on = start(process.execPath, [bin, "--host", "0.0.0.0", "--port", "0", "--size", "5", "--ui"], app);
    try {
      await off.waitFor(
        /^Page: off, since --host 0\.0\.0\.0 lets other machines reach the mock; pass --ui to serve it anyway\.$/m,
      );
      const url = (await off.waitFor(/^Comments API mock listening on (\S+)/m))[1]!;
      const port = new URL(url).port;
      expect((await fetch(`http://127.0.0.1:${port}/__mock/`)).status).toBe(404);
      await on.waitFor(
        /^Page \(signed in; the link works once\): http:\/\/127\.0\.0\.1:\d+\/__mock\/\?key=\S+\nWarning: --ui on --host 0\.0\.0\.0/m,
      );
    } finally {
      await Promise.all([off.stop(), on.stop()]);
    }
  });
});

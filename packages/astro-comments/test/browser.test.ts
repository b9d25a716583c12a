/// <reference lib="dom" />
// The built example site in a real browser (Chromium through playwright-core): comments visible
// and nested, code highlighted, layouts at phone and desktop widths, not one script run by the XSS
// corpus, what screen readers are told, and no axe-core violation. Screenshots land in
// docs/screenshots for the README.
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { showcasePaths, startMockServer, xssBodies, xssNames, type MockServer } from "@astro-comments/mock-server";
import { type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { astroBuild, BUILD_TIMEOUT_MS } from "./helpers/astro-cli.ts";
import { chromiumMissing, chromiumPath, chromiumRequired, launchChromium } from "./helpers/chromium.ts";
import { auditSection, failingContrast } from "./helpers/comment-audit.ts";
import { serveStatic } from "./helpers/static-site.ts";

const screenshots = fileURLToPath(new URL("../../../docs/screenshots/", import.meta.url));
const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const pages = ["/", ...Object.values(showcasePaths).map((p) => `${p}/`)];

let mock: MockServer;
let server: { url: string; close: () => Promise<void> };
let browser: Browser;

interface Tripwire {
  dialogs: string[];
  consoleErrors: string[];
  pageErrors: string[];
}

// Runs before any page script: any call to these, or any payload setting __xss, is an execution.
const initScript = `
  window.__xss = undefined;
  for (const name of ["alert", "confirm", "prompt", "print"]) {
    window[name] = (...args) => { window.__xss = (window.__xss || 0) + 1; window.__xssCalls = (window.__xssCalls || []).concat(name + "(" + args.join(",") + ")"); };
  }
`;

async function open(
  path: string,
  options: { width: number; height: number; colorScheme?: "light" | "dark" } = { width: 1280, height: 900 },
): Promise<{ page: Page; trip: Tripwire }> {
  const context = await browser.newContext({
    viewport: { width: options.width, height: options.height },
    colorScheme: options.colorScheme ?? "light",
    javaScriptEnabled: true,
  });
  await context.addInitScript(initScript);
  const page = await context.newPage();
  const trip: Tripwire = { dialogs: [], consoleErrors: [], pageErrors: [] };
  page.on("dialog", (dialog) => {
    trip.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on("console", (message) => {
    if (message.type() === "error") trip.consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => trip.pageErrors.push(error.message));
  const response = await page.goto(`${server.url}${path}`, { waitUntil: "load" });
  expect(response?.status(), path).toBe(200);
  return { page, trip };
}

/** Fires the events hostile attributes listen for on every element in the comments section. */
async function provoke(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const element of document.querySelectorAll("[data-comments] *")) {
      for (const type of ["mouseover", "mouseenter", "pointerover", "focus", "animationstart", "toggle"])
        element.dispatchEvent(new Event(type, { bubbles: true }));
      if (element instanceof HTMLElement) element.focus();
    }
  });
}

async function executed(page: Page, trip: Tripwire): Promise<string[]> {
  const marker = await page.evaluate(
    () =>
      (window as unknown as { __xssCalls?: string[]; __xss?: unknown }).__xssCalls ??
      ((window as unknown as { __xss?: unknown }).__xss ? ["__xss set"] : []),
  );
  return [...trip.dialogs, ...marker, ...trip.pageErrors];
}

// Without Chromium the suite is skipped, saying so in one line; in CI it fails instead (beforeAll).
const skipped = chromiumMissing !== undefined && !chromiumRequired;
if (skipped) console.warn(chromiumMissing);

describe.skipIf(skipped)("in Chromium", () => {
  // Inside the suite, so a skipped suite builds nothing.
  beforeAll(async () => {
    if (!chromiumPath) throw new Error(chromiumMissing);
    mock = await startMockServer({ token: "tok-browser" });
    const build = await astroBuild({
      COMMENTS_DOMAIN: "example.com",
      COMMENTS_API_URL: mock.url,
      COMMENTS_API_TOKEN: mock.token,
    });
    if (build.code !== 0) throw new Error(`astro build failed with ${build.code}:\n${build.log}`);
    server = await serveStatic(build.out);
    browser = await launchChromium();
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await mock?.close();
  });

  it("shows the comments nested as the markup contract says", async () => {
    const { page } = await open(`${showcasePaths.hello}/`);
    const summary = await page.evaluate(() => {
      const section = document.querySelector("section[data-comments]")!;
      const top = [...section.querySelectorAll(":scope > ol > li > article[data-comment]")];
      return {
        heading: section.querySelector("h2")?.textContent,
        top: top.length,
        visible: top.every((a) => (a as HTMLElement).offsetHeight > 0),
        nested: top.map(
          (a) => a.querySelectorAll(":scope > [data-comment-replies] > li > article[data-comment]").length,
        ),
        authors: [...section.querySelectorAll("[data-comment-author]")].map((e) => e.textContent),
        times: [...section.querySelectorAll("time")].map((t) => t.getAttribute("datetime")),
      };
    });
    expect(summary.heading).toBe("Comments (5)");
    expect(summary.top).toBe(2);
    expect(summary.visible).toBe(true);
    expect(summary.nested).toEqual([2, 1]);
    expect(summary.authors[0]).toBe("Jane Doe");
    expect(summary.times.every((t) => t !== null && !Number.isNaN(Date.parse(t)))).toBe(true);
    await page.context().close();
  });

  it("is announced as screen readers need: a named region, named reply lists, named permalinks", async () => {
    const { page } = await open(`${showcasePaths.hello}/`);
    // Playwright's role queries read the browser's accessibility tree.
    await expect(page.getByRole("region", { name: "Comments (5)" }).count()).resolves.toBe(1);
    await expect(page.getByRole("list", { name: "Replies to Jane Doe" }).count()).resolves.toBe(1);
    const permalinks = page.getByRole("link", { name: /, comment by / });
    await expect(permalinks.count()).resolves.toBe(5);
    const first = await permalinks.first().evaluate((a) => ({
      name: a.getAttribute("aria-label"),
      date: a.textContent,
      href: a.getAttribute("href"),
      target: a.closest("article")?.id,
    }));
    expect(first.name).toBe(`${first.date}, comment by Jane Doe`);
    expect(first.href).toBe(`#${first.target}`);
    // Each article is named by its author and date (a screen reader's list of articles), from the header's text.
    const names = await page.evaluate(() =>
      [...document.querySelectorAll("article[data-comment]")].map(
        (article) =>
          `${article.querySelector("[data-comment-author]")!.textContent} ${article.querySelector("time")!.textContent}`,
      ),
    );
    expect(names).toHaveLength(5);
    for (const name of new Set(names))
      await expect(page.getByRole("article", { name, exact: true }).count()).resolves.toBe(
        names.filter((other) => other === name).length,
      );
    await page.context().close();
  });

  it("a permalink opens the page at its comment and marks it, without script", async () => {
    const { page } = await open(`${showcasePaths.long}/`, { width: 1280, height: 700, colorScheme: "light" });
    const ids = await page.evaluate(() => [...document.querySelectorAll("article[data-comment]")].map((a) => a.id));
    const id = ids[Math.floor(ids.length / 2)]!;
    await page.goto(`${server.url}${showcasePaths.long}/#${id}`, { waitUntil: "load" });
    const target = await page.evaluate((wanted) => {
      const article = document.getElementById(wanted)!;
      const box = article.getBoundingClientRect();
      const other = document.querySelector(`article[data-comment]:not([id="${wanted}"])`)!;
      return {
        matches: article.matches(":target"),
        top: box.top,
        inView: box.top >= 0 && box.top < window.innerHeight,
        border: getComputedStyle(article).borderTopColor,
        text: getComputedStyle(article).color,
        otherBorder: getComputedStyle(other).borderTopColor,
        scrolled: window.scrollY,
      };
    }, id);
    expect(target.matches).toBe(true);
    expect(target.inView).toBe(true);
    expect(target.scrolled).toBeGreaterThan(0);
    // Marked in the page's own text colour, where the others have a faint tint of it.
    expect(target.border).toBe(target.text);
    expect(target.otherBorder).not.toBe(target.text);
    await page.context().close();
  });

  it.each(["light", "dark"] as const)(
    "axe-core finds no accessibility violation on any page (%s)",
    async (colorScheme) => {
      for (const path of pages) {
        const { page } = await open(path, { width: 1280, height: 900, colorScheme });
        await page.addScriptTag({ path: axePath });
        const { violations, passed } = await page.evaluate(async () => {
          type Result = { id: string; impact: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> };
          const axe = (
            window as unknown as {
              axe: { run: (context: Document) => Promise<{ violations: Result[]; passes: Result[] }> };
            }
          ).axe;
          const results = await axe.run(document);
          return {
            violations: results.violations.map((v) => ({
              id: v.id,
              impact: v.impact,
              nodes: v.nodes.slice(0, 3).map((n) => `${JSON.stringify(n.target)}: ${n.failureSummary ?? ""}`),
            })),
            passed: results.passes.map((p) => p.id),
          };
        });
        expect(violations, `${path} (${colorScheme})`).toEqual([]);
        // It did check what matters here (a vacuous pass would list nothing).
        expect(passed, path).toEqual(
          expect.arrayContaining(["color-contrast", "landmark-unique", "html-has-lang", "heading-order"]),
        );
        if (path !== "/" && path !== `${showcasePaths.quiet}/`)
          expect(passed, path).toEqual(
            expect.arrayContaining(["link-name", "aria-prohibited-attr", "list", "listitem"]),
          );
        await page.context().close();
      }
    },
  );

  it("highlights code: PrismJS tokens are styled differently from plain code", async () => {
    const { page } = await open(`${showcasePaths.code}/`);
    const colours = await page.evaluate(() => {
      const keyword = document.querySelector("[data-comments] .token.keyword");
      const code = document.querySelector("[data-comments] pre code");
      // Both as sRGB bytes through a canvas, so a colour written differently but looking the same counts as the same.
      const canvas = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
      const rgb = (element: Element | null) => {
        canvas.fillStyle = element ? getComputedStyle(element).color : "#000";
        canvas.fillRect(0, 0, 1, 1);
        return [...canvas.getImageData(0, 0, 1, 1).data.slice(0, 3)];
      };
      return {
        keyword: rgb(keyword),
        code: rgb(code),
        tokens: document.querySelectorAll("[data-comments] .token").length,
      };
    });
    expect(colours.tokens).toBeGreaterThan(50);
    // Visibly different: some channel apart by more than 40 of 255.
    expect(Math.max(...colours.keyword.map((value, i) => Math.abs(value - colours.code[i]!)))).toBeGreaterThan(40);
    await page.context().close();
  });

  it.each([
    ["phone", 375, 740],
    ["desktop", 1280, 900],
  ])("lays out without horizontal overflow at %s width", async (_, width, height) => {
    for (const path of pages) {
      const { page } = await open(path, { width, height });
      const layout = await page.evaluate(() => {
        const section = document.querySelector("[data-comments]");
        return {
          scroll: document.documentElement.scrollWidth,
          viewport: window.innerWidth,
          section: section ? section.getBoundingClientRect().width : 0,
        };
      });
      expect(layout.scroll, `${path} at ${width}px`).toBeLessThanOrEqual(layout.viewport);
      expect(layout.section).toBeLessThanOrEqual(layout.viewport);
      await page.context().close();
    }
  });

  it("runs no script on any page: no dialog, no marker, no console error", async () => {
    for (const path of pages) {
      const { page, trip } = await open(path);
      await provoke(page);
      expect(await executed(page, trip), path).toEqual([]);
      expect(trip.consoleErrors, path).toEqual([]);
      // Structured data (<CommentsJsonLd>) is the only script, and browsers never run it.
      expect(
        await page.evaluate(
          () => [...document.scripts].filter((script) => script.type !== "application/ld+json").length,
        ),
        path,
      ).toBe(0);
      await page.context().close();
    }
  });

  it("the XSS corpus: every vector rendered, none executed, only allow-listed markup in the DOM", async () => {
    const { page, trip } = await open(`${showcasePaths.xss}/`);
    await provoke(page);
    const dom = await page.evaluate(() => {
      const section = document.querySelector("[data-comments]")!;
      const bodies = [...section.querySelectorAll("[data-comment-body]")];
      const tags = new Set<string>();
      const attributes: string[] = [];
      const hrefs: string[] = [];
      for (const body of bodies) {
        for (const element of body.querySelectorAll("*")) {
          tags.add(element.localName);
          for (const attribute of element.attributes) {
            attributes.push(`${element.localName}[${attribute.name}]`);
            if (attribute.name === "href") hrefs.push((element as HTMLAnchorElement).href);
          }
        }
      }
      return {
        bodies: bodies.length,
        names: [...section.querySelectorAll("[data-comment-author]")].map((e) => e.textContent ?? ""),
        tags: [...tags].sort(),
        attributes: [...new Set(attributes)].sort(),
        hrefs,
      };
    });
    const vectors = xssBodies.length + xssNames.length;
    const ran = await executed(page, trip);
    // The figures the README reports.
    console.info(
      `XSS corpus: ${vectors} vectors tried (${xssBodies.length} bodies, ${xssNames.length} names), ${ran.length} executed, ${dom.bodies} comments rendered`,
    );
    expect(vectors).toBeGreaterThanOrEqual(100);
    expect(dom.bodies).toBeGreaterThanOrEqual(xssBodies.length);
    expect(ran).toEqual([]);
    const allowedTags = [
      "a",
      "b",
      "blockquote",
      "br",
      "code",
      "em",
      "i",
      "li",
      "ol",
      "p",
      "pre",
      "span",
      "strong",
      "table",
      "tbody",
      "td",
      "th",
      "thead",
      "tr",
      "ul",
    ];
    expect(dom.tags.filter((tag) => !allowedTags.includes(tag))).toEqual([]);
    // pre[tabindex] is the renderer's own tabindex="0" (a scrollable block takes keyboard focus).
    expect(
      dom.attributes.filter(
        (a) =>
          !["a[href]", "a[rel]", "a[title]", "code[class]", "pre[class]", "pre[tabindex]", "span[class]"].includes(a),
      ),
    ).toEqual([]);
    expect(dom.hrefs.filter((h) => !/^(https?:|mailto:)/.test(h))).toEqual([]);
    // Hostile names are shown, as text.
    for (const name of xssNames) expect(dom.names).toContain(name);
    await page.context().close();
  });

  it("saves light and dark screenshots for the README", async () => {
    mkdirSync(screenshots, { recursive: true });
    for (const colorScheme of ["light", "dark"] as const) {
      const { page } = await open(`${showcasePaths.code}/`, { width: 900, height: 1100, colorScheme });
      await page.locator("[data-comments]").scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(screenshots, `comments-${colorScheme}.png`) });
      // Every kind of text at WCAG AA over the background actually behind it, in this scheme.
      expect(failingContrast(await auditSection(page)), colorScheme).toEqual([]);
      await page.context().close();
    }
    const { page } = await open(`${showcasePaths.hello}/`, { width: 375, height: 900 });
    await page.screenshot({ path: join(screenshots, "comments-phone.png"), fullPage: true });
    await page.context().close();
  });
});

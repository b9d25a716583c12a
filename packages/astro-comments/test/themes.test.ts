/// <reference lib="dom" />
// The default stylesheet in real themes, set up as the README says with the package installed by
// name and version from the run's registry, built against the mock, then measured in Chromium:
// - Starlight with its official Tailwind 4 integration (and Tailwind's own preflight), its
//   `data-theme` toggle, a Head override adding <ClientRouter />, Pagefind; installed with pnpm;
// - a blog with no dark mode on modern-normalize, Tailwind 4 and a hand-written reset, on a
//   paper-coloured page; installed with npm;
// - Astro Accelerator, a whole public Astro 5 site from the npm registry whose dark colours follow
//   only the reader's system; installed with npm as its author publishes it (no lockfile).
// The first two fixtures (fixtures/starlight-tailwind-site, fixtures/tailwind-blog-site) pin every
// version; Astro Accelerator pins its own version and takes its dependencies' ranges.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startMockServer, type MockServer } from "@astro-comments/mock-server";
import { type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumMissing, chromiumPath, chromiumRequired, launchChromium } from "./helpers/chromium.ts";
import { acceleratorPaths, addComments, fetchAccelerator } from "./helpers/astro-accelerator.ts";
import { auditSection, axeViolations, failingContrast, type SectionAudit } from "./helpers/comment-audit.ts";
import { npm, repoTool, run, type RunResult } from "./helpers/pack-sites.ts";
import { spec } from "./helpers/registry.ts";
import { serveStatic } from "./helpers/static-site.ts";
import { themeComments } from "./helpers/theme-comments.ts";

const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));
const screenshots = fileURLToPath(new URL("../../../docs/screenshots/", import.meta.url));
const TOKEN = "tok-themes-51c2e9";
const starlightPaths = ["/guides/first/", "/guides/second/"] as const;
const blogPaths = ["/posts/first/", "/posts/second/"] as const;

type Server = { url: string; close: () => Promise<void> };
interface Site {
  dir: string;
  install?: RunResult;
  build?: RunResult;
  server?: Server;
}

let mock: MockServer;
let work: string;
let browser: Browser;
const starlight: Site = { dir: "" };
const blog: Site = { dir: "" };
const accelerator: Site = { dir: "" };

const skipped = chromiumMissing !== undefined && !chromiumRequired;
if (skipped) console.warn(chromiumMissing);

/** Copies a fixture, installs the package by name the way README step 1 says, builds, and serves dist. */
async function setUp(
  site: Site,
  fixture: string,
  install: (name: string) => Promise<RunResult>,
  build: () => Promise<RunResult>,
): Promise<void> {
  site.dir = join(work, fixture);
  cpSync(join(fixtures, fixture), site.dir, { recursive: true });
  site.install = await install(spec("packages/astro-comments"));
  if (site.install.code !== 0) return;
  site.build = await build();
  if (site.build.code === 0) site.server = await serveStatic(join(site.dir, "dist"));
}

const env = (domain: string) => ({ COMMENTS_DOMAIN: domain, COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: TOKEN });

describe.skipIf(skipped)("real themes with the package from the registry, in Chromium", () => {
  beforeAll(async () => {
    if (!chromiumPath) throw new Error(chromiumMissing);
    mock = await startMockServer({
      token: TOKEN,
      comments: [
        ...themeComments("docs.example.com", starlightPaths, 1),
        ...themeComments("blog.example.com", blogPaths, 11),
        ...themeComments("accelerator.example.com", acceleratorPaths, 21),
      ],
    });
    work = mkdtempSync(join(tmpdir(), "astro-comments-themes-"));
    const pnpm = repoTool("pnpm");
    await setUp(
      starlight,
      "starlight-tailwind-site",
      (name) => run(process.execPath, [pnpm, "add", name, "--prefer-offline", "--reporter=append-only"], starlight.dir),
      () => run(process.execPath, [pnpm, "exec", "astro", "build"], starlight.dir, env("docs.example.com")),
    );
    await setUp(
      blog,
      "tailwind-blog-site",
      (name) => npm(["install", "--prefer-offline", name], blog.dir),
      () =>
        run(
          process.execPath,
          [join(blog.dir, "node_modules/astro/bin/astro.mjs"), "build"],
          blog.dir,
          env("blog.example.com"),
        ),
    );
    // Astro Accelerator: the site as `npm pack` of the registry gives it, its sample pages, README
    // steps 2 and 3, then one `npm install` of the package by name that also installs the theme's
    // own dependencies, and the theme's own build script.
    const fetched = await fetchAccelerator(join(work, "accelerator"));
    accelerator.dir = fetched.dir;
    accelerator.install = fetched.result;
    if (fetched.result.code === 0) {
      addComments(accelerator.dir);
      accelerator.install = await npm(
        ["install", "--prefer-offline", spec("packages/astro-comments")],
        accelerator.dir,
      );
    }
    if (accelerator.install.code === 0) {
      accelerator.build = await run("npm", ["run", "build"], accelerator.dir, env("accelerator.example.com"));
      if (accelerator.build.code === 0) accelerator.server = await serveStatic(join(accelerator.dir, "dist"));
    }
    browser = await launchChromium();
  }, 20 * 60_000);

  afterAll(async () => {
    await browser?.close();
    await starlight.server?.close();
    await blog.server?.close();
    await accelerator.server?.close();
    await mock?.close();
    if (work) rmSync(work, { recursive: true, force: true });
    // Three sites' node_modules (Astro Accelerator's alone is 16,000 files) take over a minute to
    // delete on a busy machine: 36 s for that one with both cores loaded.
  }, 5 * 60_000);

  /** A page of a built site; `toggle` is what Starlight's theme switch saved ("dark"/"light"). */
  async function open(
    site: Site,
    path: string,
    options: { colorScheme: "light" | "dark"; toggle?: "light" | "dark"; width?: number },
  ): Promise<{ page: Page; context: BrowserContext }> {
    const context = await browser.newContext({
      viewport: { width: options.width ?? 1280, height: 900 },
      colorScheme: options.colorScheme,
    });
    if (options.toggle)
      await context.addInitScript(`localStorage.setItem("starlight-theme", ${JSON.stringify(options.toggle)});`);
    const page = await context.newPage();
    const response = await page.goto(`${site.server!.url}${path}`, { waitUntil: "load" });
    expect(response?.status(), path).toBe(200);
    return { page, context };
  }

  function expectReadableTypography(audit: SectionAudit, where: string): void {
    // The lowest ratio of each kind of text, for docs/styling.md.
    const lowest = new Map<string, number>();
    for (const c of audit.contrast) lowest.set(c.role, Math.min(c.ratio, lowest.get(c.role) ?? Infinity));
    console.info(`contrast, ${where}: ${[...lowest].map(([role, ratio]) => `${role} ${ratio}`).join(", ")}`);
    expect(failingContrast(audit), where).toEqual([]);
    expect(
      audit.contrast.map((c) => c.role),
      where,
    ).toEqual(expect.arrayContaining(["heading", "name", "date", "body", "link", "code"]));
    // Every pair of neighbouring blocks of the rich body: p→p, p→ul, ul→ol, ol→blockquote, blockquote→pre, pre→p.
    expect(Object.keys(audit.gaps).length, where).toBe(6);
    expect(
      Object.entries(audit.gaps).filter(([, px]) => px <= 0),
      where,
    ).toEqual([]);
    expect(audit.listStyles.length, where).toBeGreaterThanOrEqual(3);
    expect(
      audit.listStyles.filter((type) => type === "none"),
      where,
    ).toEqual([]);
    expect(
      audit.listIndent.every((px) => px > 0),
      `${where}: list items indented past the paragraphs`,
    ).toBe(true);
    expect(audit.headingPx, where).toBeGreaterThanOrEqual(audit.bodyPx);
    expect(audit.headingWeight, where).toBeGreaterThanOrEqual(600);
  }

  describe("Starlight + Tailwind 4, installed with pnpm", () => {
    it("installs the package by name with pnpm add and builds with pnpm exec astro build", () => {
      expect(starlight.install?.code, starlight.install?.output).toBe(0);
      expect(starlight.build?.code, starlight.build?.output).toBe(0);
      expect(starlight.build!.output).toMatch(/\[astro-comments\] 3 comments on 2 pages:/);
    });

    const states = [
      { name: "light system", colorScheme: "light", scheme: "light" },
      { name: "dark system", colorScheme: "dark", scheme: "dark" },
      { name: "light system, toggled to dark", colorScheme: "light", toggle: "dark", scheme: "dark" },
      { name: "dark system, toggled to light", colorScheme: "dark", toggle: "light", scheme: "light" },
    ] as const;
    it.each(states)("is readable and keeps its typography: $name", async (state) => {
      const { page, context } = await open(starlight, starlightPaths[0], state);
      const theme = await page.evaluate(() => document.documentElement.dataset.theme);
      expect(theme, "Starlight applied the scheme this state means").toBe(state.scheme);
      // The section declares the scheme the site's toggle chose (darkMode: "auto").
      expect(await page.evaluate(() => getComputedStyle(document.querySelector("[data-comments]")!).colorScheme)).toBe(
        state.scheme,
      );
      const audit = await auditSection(page);
      expectReadableTypography(audit, `Starlight, ${state.name}`);
      expect(await axeViolations(page), state.name).toEqual([]);
      if (state.name === "light system, toggled to dark") {
        mkdirSync(screenshots, { recursive: true });
        await page
          .locator("[data-comments]")
          .screenshot({ path: join(screenshots, "theme-starlight-tailwind-dark.png") });
      }
      await context.close();
    });

    it("does not overflow at 390 px", async () => {
      for (const colorScheme of ["light", "dark"] as const) {
        const { page, context } = await open(starlight, starlightPaths[0], { colorScheme, width: 390 });
        expect((await auditSection(page)).overflow, colorScheme).toBeLessThanOrEqual(0);
        await context.close();
      }
    });

    it("a ClientRouter navigation shows the next page's own comments", async () => {
      const { page, context } = await open(starlight, starlightPaths[0], { colorScheme: "light" });
      const authors = () => page.locator("[data-comments] [data-comment-author]").allTextContents();
      expect(await authors()).toEqual(["Ada Lovelace", "Grace Hopper"]);
      // A marker on window survives only a navigation that did not reload the page.
      await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
      const swapped = page.evaluate(
        () =>
          new Promise<void>((resolve) => document.addEventListener("astro:page-load", () => resolve(), { once: true })),
      );
      await page.locator(`nav a[href="${starlightPaths[1]}"]`).first().click();
      await swapped;
      expect(page.url()).toBe(`${starlight.server!.url}${starlightPaths[1]}`);
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
      expect(await authors()).toEqual(["Katherine Johnson"]);
      await context.close();
    });

    it("Pagefind indexes comment bodies, never the heading, counts, names, dates or the empty text", async () => {
      const { page, context } = await open(starlight, starlightPaths[0], { colorScheme: "light" });
      // Pagefind's own search API, as the theme's search box uses it; a string, so no test transform touches import().
      const hits = (await page.evaluate(`(async () => {
        const pagefind = await import("/pagefind/pagefind.js");
        const counts = {};
        for (const term of ["paragraph", "katherine", "lovelace", "yet", "2026"]) counts[term] = (await pagefind.search(term)).results.length;
        return counts;
      })()`)) as Record<string, number>;
      expect(hits).toEqual({ paragraph: 1, katherine: 0, lovelace: 0, yet: 0, "2026": 0 });
      await context.close();
    });
  });

  describe("a blog with no dark mode on modern-normalize, Tailwind 4 and its own reset, installed with npm", () => {
    it("installs the package by name with npm install and builds", () => {
      expect(blog.install?.code, blog.install?.output).toBe(0);
      expect(blog.build?.code, blog.build?.output).toBe(0);
    });

    it.each(["light", "dark"] as const)(
      "stays light, readable and typeset on the paper-coloured page with a %s system",
      async (colorScheme) => {
        const { page, context } = await open(blog, blogPaths[0], { colorScheme });
        const audit = await auditSection(page);
        expectReadableTypography(audit, `blog, ${colorScheme} system`);
        // Text on the page's own paper colour: the comments did not turn dark on their own.
        const body = audit.contrast.find((c) => c.role === "body")!;
        expect(body.foreground).toBe("#3d3528");
        expect(
          await page.evaluate(() => getComputedStyle(document.querySelector("[data-comments]")!).colorScheme),
        ).toBe("normal");
        expect(await axeViolations(page), colorScheme).toEqual([]);
        if (colorScheme === "dark")
          await page
            .locator("[data-comments]")
            .screenshot({ path: join(screenshots, "theme-tailwind-blog-dark-system.png") });
        await context.close();
      },
    );

    it("takes the site's restyling through Tailwind: a custom property set by a utility class, and @apply", async () => {
      const { page, context } = await open(blog, blogPaths[0], { colorScheme: "light" });
      const styles = await page.evaluate(() => ({
        surface: getComputedStyle(document.querySelector("[data-comment]")!).backgroundColor,
        heading: getComputedStyle(document.querySelector(".astro-comments__heading")!).fontSize,
      }));
      expect(styles).toEqual({ surface: "rgb(255, 255, 255)", heading: "30px" });
      await context.close();
    });

    it("does not overflow at 390 px", async () => {
      const { page, context } = await open(blog, blogPaths[0], { colorScheme: "light", width: 390 });
      expect((await auditSection(page)).overflow).toBeLessThanOrEqual(0);
      await context.close();
    });
  });

  describe("Astro Accelerator 5.10.19 from the registry, dark only with the system, installed with npm", () => {
    it("installs the package by name with npm install and builds with the theme's npm run build", () => {
      expect(accelerator.install?.code, accelerator.install?.output).toBe(0);
      expect(accelerator.build?.code, accelerator.build?.output).toBe(0);
      expect(accelerator.build!.output).toMatch(/\[astro-comments\] 3 comments on 2 pages:/);
    });

    it("shows each page of the article layout its own comments", async () => {
      const { page, context } = await open(accelerator, acceleratorPaths[1], { colorScheme: "light" });
      expect(await page.locator("[data-comments] [data-comment-author]").allTextContents()).toEqual([
        "Katherine Johnson",
      ]);
      await context.close();
    });

    /**
     * A page once the theme's script has put its "Copy" button (in a zero-height div.copy-container)
     * before each <pre>, comments' code blocks included: the layout a reader sees.
     */
    async function openEnhanced(colorScheme: "light" | "dark", width?: number) {
      const opened = await open(accelerator, acceleratorPaths[0], { colorScheme, width });
      await opened.page.locator("[data-comment-body] .copy-container").first().waitFor({ state: "attached" });
      return opened;
    }

    it.each(["light", "dark"] as const)(
      "follows the theme's colours, readable and typeset, with a %s system",
      async (colorScheme) => {
        const { page, context } = await openEnhanced(colorScheme);
        const audit = await auditSection(page);
        // The body's own blocks, measured across the theme's inserted div: the blockquote before a
        // <pre> touched it (0 px) while the stylesheet spaced only a block that follows another block.
        const gaps = await page.evaluate(() => {
          const blocks = [...document.querySelector("[data-comments] [data-comment-body]")!.children].filter(
            (e) => !e.matches(".copy-container"),
          );
          return Object.fromEntries(
            blocks
              .slice(1)
              .map((block, i) => [
                `${blocks[i]!.localName}→${block.localName}`,
                Math.round(block.getBoundingClientRect().top - blocks[i]!.getBoundingClientRect().bottom),
              ]),
          );
        });
        expect(Object.keys(audit.gaps)).toContain("div→pre");
        expectReadableTypography({ ...audit, gaps }, `Astro Accelerator, ${colorScheme} system`);
        // The body text is the theme's own --fore of that scheme (public/css/vars.css), not a palette of ours.
        const body = audit.contrast.find((c) => c.role === "body")!;
        expect(body.foreground).toBe(colorScheme === "dark" ? "#ddffff" : "#223333");
        expect(await axeViolations(page), colorScheme).toEqual([]);
        if (colorScheme === "dark")
          await page
            .locator("[data-comments]")
            .screenshot({ path: join(screenshots, "theme-astro-accelerator-dark-system.png") });
        await context.close();
      },
    );

    it("does not overflow at 390 px", async () => {
      for (const colorScheme of ["light", "dark"] as const) {
        const { page, context } = await openEnhanced(colorScheme, 390);
        expect((await auditSection(page)).overflow, colorScheme).toBeLessThanOrEqual(0);
        await context.close();
      }
    });
  });
});

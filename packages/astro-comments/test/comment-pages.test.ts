/// <reference lib="dom" />
// Comment pages (issue 39), in a real build of the example site with its default setup: a post
// with 1,000 comments, a post with one thread of 3,000 replies, and a small post. A reader starts
// on the post page and follows only the plain links inside the comments section.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockServer, type MockServer } from "@astro-comments/mock-server";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { externalData, unsealModule } from "../src/loader/module-format.ts";
import type { PaginationOutline } from "../src/render/pagination-outline.ts";
import { astroBuild, BUILD_TIMEOUT_MS } from "./helpers/astro-cli.ts";
import { chromiumMissing, chromiumPath, chromiumRequired, launchChromium } from "./helpers/chromium.ts";
import {
  codeThreads,
  manyThreads,
  oneLongThread,
  readPage,
  section,
  smallPost,
  walk,
  type WalkedPage,
} from "./helpers/long-threads.ts";
import { copySite, editConfig, setPagesOption, type SiteCopy } from "./helpers/site-copy.ts";
import { serveStatic } from "./helpers/static-site.ts";

const MANY = "/posts/hello-world";
const LONG = "/posts/long-thread";
const SMALL = "/posts/quiet-post";
const CODE = "/posts/code-in-comments";
const FEW_CODE = "/posts/around-the-world";

let mock: MockServer;
let site: SiteCopy;
let out: string;
let build: { code: number; log: string };

beforeAll(async () => {
  mock = await startMockServer({
    data: {
      format: "comments-mock-data",
      version: 1,
      domain: "example.com",
      comments: [
        ...manyThreads(MANY),
        ...oneLongThread(LONG, 3_000),
        ...smallPost(SMALL),
        ...codeThreads(CODE),
        ...codeThreads(FEW_CODE, 30, 0),
      ],
    },
  });
  site = copySite("comment-pages");
  // The default comment pages (the example site sets its own size), and the README's feed example
  // beside their route.
  setPagesOption(site.dir, 'feeds: { atom: "/comments.xml", pageAtom: "/comments/[...page].xml" },');
  // And @astrojs/sitemap, as most sites have it: comment pages are pages search engines should find.
  editConfig(
    site.dir,
    (config) =>
      `import sitemap from "@astrojs/sitemap";\n${config.replace("integrations: [", "integrations: [sitemap(), ")}`,
  );
  out = join(mkdtempSync(join(tmpdir(), "ac-pages-")), "dist");
  const env = { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: mock.token };
  build = await astroBuild(env, out, site.dir);
}, BUILD_TIMEOUT_MS);
afterAll(() => Promise.all([mock?.close(), site?.remove()]));

/** Each permalink on a page points at an element with that id on the page it names. */
function brokenPermalinks(pages: readonly WalkedPage[]): string[] {
  return pages.flatMap((page) =>
    page.permalinks.filter((href) => {
      const [path, id = ""] = href.split("#");
      const target = path === "" ? page : readPage(out, path!);
      return !target.html.includes(` id="${id}"`);
    }),
  );
}

/** What every page of a walk must be: light, few comments, no script, its page marked in the navigation. */
function expectLightPages(pages: readonly WalkedPage[]) {
  for (const page of pages) {
    expect(page.elements, page.url).toBeLessThanOrEqual(1_400);
    expect(page.comments.length, page.url).toBeLessThanOrEqual(300);
    expect(page.scripts, page.url).toBe(0);
    expect(section(page.html), page.url).toMatch(/<nav [^>]*aria-label="[^"]+"/);
    expect(section(page.html).match(/aria-current="page"/g), page.url).toHaveLength(1);
  }
}

/** A reader's walk from a split post: light pages, each of its `total` comments exactly once, every permalink resolving. */
function walkSplitPost(post: string, total: number): WalkedPage[] {
  const pages = walk(out, `${post}/`);
  const ids = pages.flatMap((page) => page.comments);
  expect(ids).toHaveLength(total);
  expect(new Set(ids).size).toBe(total);
  expect(pages.length).toBeGreaterThan(1);
  expectLightPages(pages);
  expect(brokenPermalinks(pages)).toEqual([]);
  return pages;
}

describe("comment pages in a build with the default setup", () => {
  it("builds", () => {
    expect(build.code, build.log).toBe(0);
    expect(build.log).not.toMatch(/\[WARN\]/);
  });

  it("splits the post with 1,000 comments into light pages that hold each comment exactly once", () => {
    const pages = walkSplitPost(MANY, 1_000);
    // The post shows the oldest comments first (order: "oldest-first") and the total.
    expect(pages[0]!.html).toContain("Comment 0 on the busy post.");
    expect(pages[0]!.html).toMatch(/data-comments-total>\(1,000\)</);
  });

  it("splits the thread with 3,000 replies: its first replies on the post, a link to the rest, the parent at the head of each page", () => {
    const pages = walk(out, `${LONG}/`);
    const [post, ...rest] = pages;
    expect(section(post!.html)).toMatch(/<a href="[^"]+\/thread\/comment-[0-9a-f]+\/2\/">2,990 more replies<\/a>/);
    const parent = post!.comments[0]!;
    for (const page of rest) expect(page.comments[0], page.url).toBe(parent);
    const replies = pages.flatMap((page) => page.comments.filter((id) => id !== parent));
    expect(replies).toHaveLength(3_000);
    expect(new Set(replies).size).toBe(3_000);
    expectLightPages(rest);
    expect(brokenPermalinks(pages)).toEqual([]);
  });

  it("fills pages of comments with code by what they weigh, so they stay as light as pages of short ones", () => {
    const pages = walk(out, `${CODE}/`);
    const parent = pages[0]!.comments[0]!;
    // The thread of 40 replies with code is too heavy for a page: its parent heads each of its pages.
    expect(section(pages[0]!.html)).toMatch(/<a href="[^"]+\/thread\/comment-[0-9a-f]+\/2\/">\d+ more replies<\/a>/);
    const others = pages.flatMap((page) => page.comments).filter((id) => id !== parent);
    expect(others).toHaveLength(169);
    expect(new Set(others).size).toBe(169);
    expectLightPages(pages);
    expect(brokenPermalinks(pages)).toEqual([]);
  });

  it("splits a post of few comments too, when their code weighs more than a page", () => {
    walkSplitPost(FEW_CODE, 30);
  });

  it("gives each comment page a title, a language, its own canonical URL and a way back to the post", () => {
    const html = readFileSync(join(out, "comments/posts/hello-world/page/2/index.html"), "utf8");
    expect(html).toMatch(/<html lang="en-GB">/);
    expect(html).toContain("<title>Comments on /posts/hello-world (page 2 of 10)</title>");
    expect(html).toContain('<link rel="canonical" href="https://example.com/comments/posts/hello-world/page/2/">');
    expect(html).not.toMatch(/noindex/);
    expect(html).toContain('<a href="/posts/hello-world/" data-comments-post>Back to the post</a>');
  });

  it("lists every comment page in @astrojs/sitemap's sitemap, beside the posts", () => {
    const sitemap = readFileSync(join(out, "sitemap-0.xml"), "utf8");
    const listed = new Set([...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname));
    const pages = [...walk(out, `${MANY}/`), ...walk(out, `${LONG}/`)].map(
      (page) => new URL(page.url, "https://example.com").pathname,
    );
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.filter((path) => !listed.has(path))).toEqual([]);
    expect(listed).toContain(`${SMALL}/`);
  });

  it("links every feed entry and every JSON-LD comment to the page that holds the comment", () => {
    const feeds = ["comments.xml", "comments/posts/hello-world.xml", "comments/posts/long-thread.xml"];
    const links = feeds.flatMap((feed) =>
      [...readFileSync(join(out, feed), "utf8").matchAll(/<link rel="alternate" type="text\/html" href="([^"]+)"\/>/g)]
        .map((match) => match[1]!)
        .filter((href) => href.includes("#")),
    );
    // Each feed holds the newest 50 (the default limit): on the last pages of the post and the thread.
    expect(links).toHaveLength(150);
    expect(links.some((href) => href.includes("/comments/posts/hello-world/page/10/#comment-"))).toBe(true);
    expect(links.some((href) => href.includes("/thread/comment-"))).toBe(true);
    const unresolved = links.filter((href) => {
      const url = new URL(href);
      return !readPage(out, url.pathname).html.includes(` id="${url.hash.slice(1)}"`);
    });
    expect(unresolved).toEqual([]);

    const html = readFileSync(join(out, "posts/hello-world/index.html"), "utf8");
    const jsonLd = JSON.parse(/<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html)![1]!) as {
      commentCount: number;
      comment: Array<{ url: string }>;
    };
    expect(jsonLd.commentCount).toBe(1_000);
    expect(jsonLd.comment.length).toBeGreaterThan(0);
    for (const { url } of jsonLd.comment) {
      expect(url).toMatch(/^https:\/\/example\.com\/posts\/hello-world\/#comment-/);
      expect(section(html)).toContain(` id="${new URL(url).hash.slice(1)}"`);
    }
  });

  it(
    "writes each split post's pages beside its comments, and a page damaged there gets its module written again",
    async () => {
      const modules = join(site.dir, "node_modules/.astro/astro-comments/modules");
      const split = readdirSync(modules)
        .filter((name) => name.endsWith(".mjs"))
        .flatMap((name) => {
          const data = externalData(unsealModule(readFileSync(join(modules, name), "utf8"))!)!;
          return data.index.flatMap(([key, , , , beside]) =>
            beside?.[0] === "split" ? [{ key, beside, file: join(modules, name.replace(/\.mjs$/, ".json")) }] : [],
          );
        });
      expect(split.map(({ key }) => key).sort()).toEqual([CODE, FEW_CODE, MANY, LONG].sort());
      const { beside, file } = split.find(({ key }) => key === LONG)!;
      const bytes = readFileSync(file);
      const outline = JSON.parse(bytes.subarray(beside[1], beside[1] + beside[2]).toString()) as PaginationOutline;
      const [, thread] = outline.threads[0]!;
      // One byte of the thread's page 7 changed: that page is never shown so.
      bytes[thread[6]!.at![0] + 10]! ^= 1;
      writeFileSync(file, bytes);
      const again = join(mkdtempSync(join(tmpdir(), "ac-pages-")), "dist");
      const env = { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: mock.token };
      const rebuilt = await astroBuild(env, again, site.dir);
      expect(rebuilt.code, rebuilt.log).toBe(0);
      expect(rebuilt.log).toContain("rebuilt 1 damaged comment module");
      const html = (dist: string) => walk(dist, `${LONG}/`).map((page) => [page.url, page.html]);
      expect(html(again)).toEqual(html(out));
    },
    BUILD_TIMEOUT_MS,
  );

  it("leaves a small post as it was, byte for byte, with no navigation and no comment page", () => {
    const before = readFileSync(new URL("fixtures/comment-pages/small-post-section.html", import.meta.url), "utf8");
    expect(section(readFileSync(join(out, SMALL.slice(1), "index.html"), "utf8"))).toBe(before);
    expect(existsSync(join(out, "comments", SMALL.slice(1)))).toBe(false);
  });
});

const skipped = chromiumMissing !== undefined && !chromiumRequired;

describe.skipIf(skipped)("comment pages in Chromium", () => {
  let server: { url: string; close: () => Promise<void> };
  let browser: Browser;
  beforeAll(async () => {
    if (!chromiumPath) throw new Error(chromiumMissing);
    server = await serveStatic(out);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("goes to the next page by keyboard, and axe-core finds nothing on a comment page", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}${MANY}/`);
    // From the last comment's permalink, Tab reaches the navigation: page 1 (current), then 2.
    await page.locator("[data-comment-permalink]").last().focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-current"))).toBe("page");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("2");
    await Promise.all([page.waitForURL("**/comments/posts/hello-world/page/2/"), page.keyboard.press("Enter")]);
    expect(await page.locator('nav[data-comments-pages] [aria-current="page"]').textContent()).toBe("2");
    await page.addScriptTag({ path: createRequire(import.meta.url).resolve("axe-core/axe.min.js") });
    const { violations, passed } = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run: (context: Document) => Promise<{ violations: Array<{ id: string }>; passes: Array<{ id: string }> }>;
          };
        }
      ).axe;
      const results = await axe.run(document);
      return { violations: results.violations.map((v) => v.id), passed: results.passes.map((p) => p.id) };
    });
    expect(violations).toEqual([]);
    expect(passed).toEqual(
      expect.arrayContaining(["html-has-lang", "document-title", "link-name", "list", "listitem"]),
    );
    await page.close();
  });
});

describe.skipIf(skipped)("pages.movedLinks and pages.layout", () => {
  let movedSite: SiteCopy;
  let movedOut: string;
  let movedBuild: { code: number; log: string };
  let server: { url: string; close: () => Promise<void> };
  let browser: Browser;
  beforeAll(async () => {
    if (!chromiumPath) throw new Error(chromiumMissing);
    movedSite = copySite("comment-pages-moved");
    setPagesOption(movedSite.dir, 'pages: { movedLinks: true, layout: "./src/layouts/SiteLayout.astro" },');
    mkdirSync(join(movedSite.dir, "src/layouts"), { recursive: true });
    copyFileSync(
      new URL("fixtures/comment-pages/SiteLayout.astro", import.meta.url),
      join(movedSite.dir, "src/layouts/SiteLayout.astro"),
    );
    movedOut = join(mkdtempSync(join(tmpdir(), "ac-moved-")), "dist");
    const env = { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: mock.token };
    movedBuild = await astroBuild(env, movedOut, movedSite.dir);
    server = await serveStatic(movedOut);
    browser = await launchChromium();
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await movedSite?.remove();
  });

  it("puts a script of a few hundred bytes after the comments section, not inside it", () => {
    expect(movedBuild.code, movedBuild.log).toBe(0);
    const html = readFileSync(join(movedOut, "posts/hello-world/index.html"), "utf8");
    const script = /<script>(\(\(\)=>\{var h=location\.hash[^<]*)<\/script>/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect(Buffer.byteLength(script!)).toBeLessThanOrEqual(400);
    expect(section(html)).not.toContain("<script");
    // A small post needs none: every comment is on it.
    expect(readFileSync(join(movedOut, SMALL.slice(1), "index.html"), "utf8")).not.toContain("location.hash");
  });

  it("renders comment pages inside the site's layout, with their title and the comments in its slot", () => {
    const html = readFileSync(join(movedOut, "comments/posts/hello-world/page/2/index.html"), "utf8");
    expect(html).toContain("<title>Comments on /posts/hello-world (page 2 of 10) · Example site</title>");
    expect(html).toContain("<header data-site-header>Example site</header>");
    const main = html.slice(html.indexOf("<main data-site-main>"));
    expect(main).toMatch(/^<main data-site-main><h1>Comments on \/posts\/hello-world \(page 2 of 10\)<\/h1>/);
    expect(main).toContain(section(html));
    expect(section(html)).toMatch(/<nav [^>]*aria-label="[^"]+"/);
  });

  it("takes a link to a comment on page 3, opened on the post page, to that comment on page 3", async () => {
    const third = "/comments/posts/hello-world/page/3/";
    const id = readPage(movedOut, third).comments[5]!;
    const page = await browser.newPage();
    await page.goto(`${server.url}${MANY}/#${id}`);
    await page.waitForURL(`**${third}#${id}`);
    const inView = await page.evaluate((target) => {
      const box = document.getElementById(target)!.getBoundingClientRect();
      return box.top >= 0 && box.top < window.innerHeight;
    }, id);
    expect(inView).toBe(true);
    // The post was replaced, not pushed: Back returns to where the reader came from (here the blank
    // page the browser opened), not to the post without the comment.
    expect(await page.evaluate(() => history.length)).toBe(2);
    await page.close();
  });

  it("stays on the page when the comment is there", async () => {
    const id = readPage(movedOut, `${MANY}/`).comments[3]!;
    const page = await browser.newPage();
    // The script runs as the page is parsed, so a lookup would start before the load goto waits for.
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    await page.goto(`${server.url}${MANY}/#${id}`);
    expect(new URL(page.url()).pathname).toBe(`${MANY}/`);
    expect(requests.filter((url) => url.endsWith(".json"))).toEqual([]);
    await page.close();
  });
});

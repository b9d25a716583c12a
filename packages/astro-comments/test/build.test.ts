// A real `astro build` of examples/site against the mock, as a user runs it (child process, so
// the logs are captured as a user sees them).
import { existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { showcasePaths, startMockServer, xssNames, type MockServer } from "@astro-comments/mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pathKey } from "../src/render/path-key.ts";
import { astroBuild, BUILD_TIMEOUT_MS, exampleSite, listFiles } from "./helpers/astro-cli.ts";
import { auditMarkup, disallowedMarkup } from "./helpers/html-audit.ts";
import { copySite, type SiteCopy } from "./helpers/site-copy.ts";

const TOKEN = "tok-BUILD-SECRET-7f3a";

/** The comments section of a page. */
function section(html: string): string {
  const start = html.indexOf("<section");
  return html.slice(start, html.indexOf("</section>", start) + "</section>".length);
}

/** The JSON of each `<script type="application/ld+json">`, as written. */
function jsonLdScripts(html: string): string[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map((m) => m[1] ?? "");
}

interface CommentNode {
  "@type": string;
  url: string;
  author: { name: string };
  dateCreated: string;
  text: string;
  comment?: CommentNode[];
}

let mock: MockServer;
let site: SiteCopy;
let out: string;
let build: { code: number; log: string };
const page = (path: string) => readFileSync(join(out, path.replace(/^\//, ""), "index.html"), "utf8");
const expectedCount = (path: string) =>
  mock.store
    .threads("example.com")
    .filter((t) => pathKey(t.path) === path)
    .reduce((n, t) => n + 1 + t.children.length, 0);

beforeAll(async () => {
  mock = await startMockServer({ token: TOKEN });
  site = copySite("build");
  out = mkdtempSync(join(tmpdir(), "ac-site-"));
  build = await astroBuild(
    { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: TOKEN },
    out,
    site.dir,
  );
}, BUILD_TIMEOUT_MS);
afterAll(async () => {
  await mock?.close();
  site?.remove();
});

describe("astro build of the example site", () => {
  it("succeeds and logs a one-line summary through the integration logger", () => {
    expect(build.code, build.log).toBe(0);
    expect(build.log).toMatch(
      /\[astro-comments\] [\d,]+ comments on \d+ pages: \d+ rendered, 0 unchanged, 0 removed \([\d.]+ s, \d+ requests? of \d+, [\d.]+ MiB\)/,
    );
    // A healthy build warns about nothing (no "entry not found" per page without comments).
    expect(build.log).not.toMatch(/\[WARN\]/);
  });

  it("renders every comment nested in place, with the markup contract", () => {
    for (const path of [
      showcasePaths.hello,
      showcasePaths.code,
      showcasePaths.world,
      showcasePaths.hostile,
      showcasePaths.long,
      showcasePaths.xss,
    ]) {
      const html = section(page(path));
      const audit = auditMarkup(html);
      const articles = (html.match(/<article[^>]*data-comment[\s>]/g) ?? []).length;
      expect(articles, path).toBe(expectedCount(path));
      expect(html).toMatch(new RegExp(`data-comments-total>\\(${expectedCount(path)}\\)<`));
      expect((html.match(/data-comment-author/g) ?? []).length).toBe(articles);
      expect((html.match(/data-comment-body/g) ?? []).length).toBe(articles);
      for (const [, datetime] of html.matchAll(/<time[^>]*datetime="([^"]+)"/g))
        expect(datetime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(audit.elements).toContain("ol");
      // Every comment has a unique content-derived id, and its permalink points at it.
      const ids = [...html.matchAll(/<article[^>]*data-comment id="(comment-[0-9a-f]{8}(?:-\d+)?)"/g)].map((m) => m[1]);
      expect(ids, path).toHaveLength(articles);
      expect(new Set(ids).size, path).toBe(articles);
      expect(
        [...html.matchAll(/<a[^>]*data-comment-permalink href="#([^"]+)"/g)].map((m) => m[1]),
        path,
      ).toEqual(ids);
    }
    // Replies sit in [data-comment-replies] inside their parent's article.
    const hello = section(page(showcasePaths.hello));
    expect(hello).toMatch(
      /<article[^>]*data-comment id="[^"]+"><header[\s\S]*?Jane Doe[\s\S]*?<ol[^>]*data-comment-replies[^>]*>(<li[^>]*><article[^>]*data-comment id="[^"]+">[\s\S]*?<\/article><\/li>){2}<\/ol><\/article>/,
    );
    // A comment stored under "/posts/hello-world/" shows on "/posts/hello-world".
    expect(hello).toContain("Trailing slash, same page.");
  });

  it("shows the empty state on a page without approved comments", () => {
    const quiet = section(page(showcasePaths.quiet));
    expect(quiet).toContain("data-comments-empty");
    expect(quiet).not.toContain("data-comment-author");
    expect(quiet).not.toContain("Only Pending");
  });

  it("counts comments (replies included) on the index with data-comment-count", () => {
    const index = readFileSync(join(out, "index.html"), "utf8");
    for (const path of [showcasePaths.hello, showcasePaths.hostile, showcasePaths.quiet]) {
      const count = expectedCount(path);
      expect(index).toContain(`<a href="${path}/">`);
      expect(index).toMatch(
        new RegExp(`href="${path}/"[^]*?data-comment-count="${count}" data-pagefind-ignore>${count} comments?<`),
      );
    }
  });

  it("highlights code with PrismJS and leaves unknown languages as escaped code", () => {
    const code = section(page(showcasePaths.code));
    for (const language of [
      "javascript",
      "typescript",
      "python",
      "rust",
      "bash",
      "css",
      "markup",
      "go",
      "json",
      "sql",
    ]) {
      expect(code, language).toContain(
        `<pre tabindex="0" class="language-${language}"><code class="language-${language}">`,
      );
    }
    expect(code).toMatch(/<span class="token keyword">/);
    expect(code).toContain('<code class="language-brainfuck-dialect">++++[&gt;++++&lt;-]&gt;. &lt;not a tag&gt;');
  });

  it("ships no executable script, and none of the hostile markup", () => {
    const html = listFiles(out).filter((f) => f.endsWith(".html"));
    expect(html.length).toBe(readdirSync(join(exampleSite, "src/content/posts")).length + 1);
    for (const file of html) {
      const text = readFileSync(file, "utf8");
      const audit = auditMarkup(text);
      // The only scripts are structured data (<CommentsJsonLd> on posts), which browsers never run.
      expect(audit.elements.filter((e) => e === "script").length, file).toBe(jsonLdScripts(text).length);
      expect(
        audit.attributes.filter((a) => a.startsWith("script[")),
        file,
      ).toEqual(audit.attributes.filter((a) => a === "script[type]"));
      expect(
        audit.attributes.filter((a) => /\[on/.test(a)),
        file,
      ).toEqual([]);
      // Permalinks are the only links within the page.
      expect(
        audit.hrefs.filter((h) => !/^(https?:|mailto:|\/|#comment-[0-9a-f]{8}(-\d+)?$)/.test(h)),
        file,
      ).toEqual([]);
    }
    expect(listFiles(out).filter((f) => f.endsWith(".js"))).toEqual([]);
    const hostile = section(page(showcasePaths.hostile));
    const bodies = [...hostile.matchAll(/data-comment-body>([\s\S]*?)<\/div>/g)].map((m) => m[1] ?? "");
    expect(bodies.length).toBeGreaterThan(16);
    for (const body of bodies) expect(disallowedMarkup(body)).toEqual([]);
    // Author names that look like markup are shown as text.
    expect(hostile).toContain("&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt;");
  });

  it("describes each post's comments as schema.org data that parses back to what the page shows", () => {
    for (const path of [showcasePaths.hello, showcasePaths.hostile, showcasePaths.xss, showcasePaths.quiet]) {
      const html = page(path);
      const scripts = jsonLdScripts(html);
      expect(scripts, path).toHaveLength(1);
      // Nothing in it can end the script: <, > and & are \u escapes.
      expect(scripts[0], path).not.toMatch(/[<>&]/);
      const data = JSON.parse(scripts[0]!) as {
        "@type": string;
        url: string;
        headline: string;
        commentCount: number;
        comment?: CommentNode[];
      };
      expect(data).toMatchObject({
        "@type": "BlogPosting",
        url: `https://example.com${path}/`,
        commentCount: expectedCount(path),
      });
      const flat = (data.comment ?? []).flatMap((c) => [c, ...(c.comment ?? [])]);
      expect(flat, path).toHaveLength(expectedCount(path));
      // Same comments, same order, same anchors as the markup; names exactly as stored, hostile ones included.
      const markup = section(html);
      const ids = [...markup.matchAll(/<article[^>]*data-comment id="([^"]+)"/g)].map((m) => m[1]);
      expect(flat.map((c) => c.url)).toEqual(ids.map((id) => `https://example.com${path}/#${id}`));
      const stored = mock.store
        .threads("example.com")
        .filter((t) => pathKey(t.path) === path)
        .flatMap((t) => [t, ...t.children]);
      expect(flat.map((c) => c.author.name).sort()).toEqual(stored.map((c) => c.name).sort());
      for (const comment of flat) expect(comment.dateCreated).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
    }
    const xss = JSON.parse(jsonLdScripts(page(showcasePaths.xss))[0]!) as { comment: CommentNode[] };
    for (const name of xssNames)
      expect(
        xss.comment.some((c) => c.author.name === name),
        name,
      ).toBe(true);
    // The index has no article of its own to describe.
    expect(jsonLdScripts(readFileSync(join(out, "index.html"), "utf8"))).toEqual([]);
  });

  it("writes the token nowhere: not in the output, the store, or the logs", () => {
    const stored = [...listFiles(join(site.dir, ".astro")), ...listFiles(join(site.dir, "node_modules", ".astro"))];
    expect(stored.some((file) => file.endsWith("data-store.json"))).toBe(true);
    for (const file of [...listFiles(out), ...stored]) expect(readFileSync(file, "utf8"), file).not.toContain(TOKEN);
    expect(build.log).not.toContain(TOKEN);
  });
});

describe("astro build with a wrong token", () => {
  it("without an earlier fetch, fails fast with one clear message, no token and no output", async () => {
    const fresh = copySite("wrong-token");
    try {
      const failedOut = join(mkdtempSync(join(tmpdir(), "ac-fail-")), "dist");
      const wrong = "tok-WRONG-9d1c";
      const result = await astroBuild(
        { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: wrong },
        failedOut,
        fresh.dir,
      );
      expect(result.code).not.toBe(0);
      expect(result.log).toContain(
        `the comments API rejected the API token (${mock.url}/api/comments?domain=example.com&per_page=100&page=1, HTTP 401). Check COMMENTS_API_TOKEN`,
      );
      expect(result.log).not.toContain(wrong);
      expect(existsSync(join(failedOut, "index.html"))).toBe(false);
    } finally {
      fresh.remove();
    }
  });

  it("after a good build, keeps the last good comments and warns once", async () => {
    const keptOut = join(mkdtempSync(join(tmpdir(), "ac-kept-")), "dist");
    const wrong = "tok-WRONG-9d1c";
    const result = await astroBuild(
      { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: wrong },
      keptOut,
      site.dir,
    );
    expect(result.code, result.log).toBe(0);
    const warnings = result.log.split("\n").filter((line) => line.includes("[WARN]"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /\[astro-comments\] showing the comments as of \d{4}-\d\d-\d\d \d\d:\d\d UTC \(\d+ pages\), because the fetch failed: the comments API rejected the API token/,
    );
    const kept = readFileSync(join(keptOut, showcasePaths.hello.slice(1), "index.html"), "utf8");
    expect(kept).toMatch(new RegExp(`data-comments-total>\\(${expectedCount(showcasePaths.hello)}\\)<`));
    // staleNotice: true in the example site says how old the comments are.
    expect(kept).toMatch(
      /<p class="astro-comments__stale" data-comments-stale data-pagefind-ignore>Comments as of <time datetime="\d{4}-\d\d-\d\dT[\d:.]+Z">[^<]+<\/time>\.<\/p>/,
    );
    expect(page(showcasePaths.hello)).not.toContain("data-comments-stale");
    expect(result.log).not.toContain(wrong);
  });

  it("fails at config time with one sentence when nothing is configured", async () => {
    const result = await astroBuild(
      { COMMENTS_DOMAIN: "", COMMENTS_API_URL: "", COMMENTS_API_TOKEN: "" },
      join(tmpdir(), "ac-none"),
      site.dir,
    );
    expect(result.code).not.toBe(0);
    expect(result.log).toContain(
      "astro-comments: set COMMENTS_DOMAIN, COMMENTS_API_URL and COMMENTS_API_TOKEN (in the environment or .env)",
    );
  });
});

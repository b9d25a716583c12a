// A site with Astro's i18n routing (locales en and de): a /de/ page shows its comments in German
// (texts, plural counts, dates, accessible names), the default-locale page stays English, and a
// per-locale override from the options wins over the built-in German.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { showcasePaths, startMockServer, type MockServer } from "@astro-comments/mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pathKey } from "../src/render/path-key.ts";
import { astroBuild, BUILD_TIMEOUT_MS } from "./helpers/astro-cli.ts";
import { copySite, type SiteCopy } from "./helpers/site-copy.ts";

const config = `import { defineConfig } from "astro/config";
import comments from "astro-comments";

export default defineConfig({
  site: "https://example.com",
  i18n: { locales: ["en", "de"], defaultLocale: "en", routing: { prefixDefaultLocale: false } },
  integrations: [
    comments({
      staleNotice: true,
      dateFormat: { locale: "en-GB", timeZone: "UTC", dateStyle: "medium", timeStyle: "short" },
      messages: { de: { emptyText: "Hier ist es noch still." } },
    }),
  ],
});
`;

// The German edition of each post shows the comments left on the English one.
const germanPost = `---
import { getCollection } from "astro:content";
import { CommentCount, Comments } from "astro-comments/components";

export async function getStaticPaths() {
  return (await getCollection("posts")).map((post) => ({ params: { slug: post.id } }));
}
const path = \`/posts/\${Astro.params.slug}\`;
---
<!doctype html>
<html lang="de">
  <head><meta charset="utf-8" /><title>Beitrag</title></head>
  <body>
    <main>
      <p class="count"><CommentCount path={path} /></p>
      <p class="labelled"><CommentCount path={path} labels={{ one: "Antwort", other: "Antworten" }} /></p>
      <Comments path={path} />
    </main>
  </body>
</html>
`;

// Every page with comments, counted in German, and one without.
const germanIndex = `---
import { CommentCount } from "astro-comments/components";
import { getAllComments } from "astro-comments/data";

const paths = [...(await getAllComments()).keys(), "${showcasePaths.quiet}"];
---
<!doctype html>
<html lang="de">
  <head><meta charset="utf-8" /><title>Beiträge</title></head>
  <body><main><ul>{paths.map((path) => <li data-path={path}><CommentCount path={path} /></li>)}</ul></main></body>
</html>
`;

// A German page that shows its own comments (the current page's).
const LONG_GERMAN = "/de/lang";
const LONG_GERMAN_COUNT = 130;
const germanLongPage = `---
import { Comments } from "astro-comments/components";
---
<!doctype html>
<html lang="de">
  <head><meta charset="utf-8" /><title>Lang</title></head>
  <body><main><Comments /></main></body>
</html>
`;

let mock: MockServer;
let site: SiteCopy;
let out: string;
let build: { code: number; log: string };
const env = () => ({ COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: mock.url, COMMENTS_API_TOKEN: mock.token });
const read = (dir: string, path: string) => readFileSync(join(dir, path.replace(/^\//, ""), "index.html"), "utf8");
const comments = (path: string) =>
  mock.store
    .threads("example.com")
    .filter((t) => pathKey(t.path) === path)
    .flatMap((t) => [t, ...t.children]);
const german = new Intl.DateTimeFormat("de", { timeZone: "UTC", dateStyle: "medium", timeStyle: "short" });
const british = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", dateStyle: "medium", timeStyle: "short" });
const escaped = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

beforeAll(async () => {
  mock = await startMockServer({ token: "tok-i18n" });
  // A page with exactly one comment, for the singular.
  mock.addComment({ domain: "example.com", path: "/notes/eins", name: "Eva", content: "Genau einer." });
  // A German page of its own with more comments than a page holds (100 by default): comment pages.
  for (let i = 1; i <= LONG_GERMAN_COUNT; i++)
    mock.addComment({ domain: "example.com", path: LONG_GERMAN, name: `Leser ${i}`, content: `Beitrag ${i}.` });
  site = copySite("i18n");
  writeFileSync(join(site.dir, "astro.config.mjs"), config);
  mkdirSync(join(site.dir, "src/pages/de/posts"), { recursive: true });
  writeFileSync(join(site.dir, "src/pages/de/posts/[slug].astro"), germanPost);
  writeFileSync(join(site.dir, "src/pages/de/index.astro"), germanIndex);
  writeFileSync(join(site.dir, "src/pages/de/lang.astro"), germanLongPage);
  out = join(mkdtempSync(join(tmpdir(), "ac-i18n-")), "dist");
  build = await astroBuild(env(), out, site.dir);
}, BUILD_TIMEOUT_MS);
afterAll(async () => {
  await mock?.close();
  site?.remove();
});

describe("a site with Astro i18n routing", () => {
  it("builds", () => {
    expect(build.code, build.log).toBe(0);
  });

  it("renders a /de/ page in German: heading, plural counts, dates and accessible names", () => {
    for (const path of [showcasePaths.hello, showcasePaths.world, showcasePaths.long]) {
      const html = read(out, `/de${path}`);
      const shown = comments(path);
      const n = shown.length;
      expect(html, path).toContain(
        `<span class="astro-comments-count" data-comment-count="${n}" data-pagefind-ignore>${n} ${n === 1 ? "Kommentar" : "Kommentare"}</span>`,
      );
      // The site's own words, chosen by German plural rules.
      expect(html, path).toContain(
        `<p class="labelled"><span class="astro-comments-count" data-comment-count="${n}" data-pagefind-ignore>${n} ${n === 1 ? "Antwort" : "Antworten"}</span></p>`,
      );
      expect(html, path).toMatch(
        new RegExp(`>Kommentare <span class="astro-comments__total" data-comments-total>\\(${n}\\)</span></h2>`),
      );
      // Every date is German (and none British); the permalink's name is German too.
      for (const comment of shown) {
        const date = german.format(new Date(comment.created_at));
        expect(html, `${path} ${comment.created_at}`).toContain(`>${escaped(date)}</time>`);
        expect(html).toContain(`aria-label="${escaped(`${date}, Kommentar von ${comment.name}`)}"`);
      }
      expect(html).not.toContain("comment by");
    }
    const hello = read(out, `/de${showcasePaths.hello}`);
    expect(hello).toContain('aria-label="Antworten auf Jane Doe"');
    expect(hello).not.toMatch(/\bComments\b|Replies/);
  });

  it("counts with German plural rules and number format on every page with comments (and one without)", () => {
    const html = read(out, "/de");
    const counts = [
      ...html.matchAll(
        /<li data-path="([^"]+)"><span class="astro-comments-count" data-comment-count="(\d+)" data-pagefind-ignore>([^<]+)<\/span><\/li>/g,
      ),
    ];
    const keys = new Set(mock.store.threads("example.com").map((t) => pathKey(t.path)));
    expect(counts).toHaveLength(keys.size + 1);
    for (const [, path, n, text] of counts) {
      expect(Number(n), path).toBe(comments(path!).length);
      expect(text, path).toBe(
        `${new Intl.NumberFormat("de").format(Number(n))} ${n === "1" ? "Kommentar" : "Kommentare"}`,
      );
    }
    // Both forms occur, so both were checked.
    expect(counts.some(([, , n]) => n === "1")).toBe(true);
    expect(counts.some(([, , n]) => n === "0")).toBe(true);
  });

  it("takes the site's German override of the empty text", () => {
    expect(read(out, `/de${showcasePaths.quiet}`)).toContain(
      '<p class="astro-comments__empty" data-comments-empty data-pagefind-ignore>Hier ist es noch still.</p>',
    );
  });

  it("keeps the default-locale page English, with the configured British dates", () => {
    const html = read(out, showcasePaths.hello);
    expect(html).toMatch(/>Comments <span class="astro-comments__total" data-comments-total>\(5\)<\/span><\/h2>/);
    expect(html).toContain('aria-label="Replies to Jane Doe"');
    const [first] = comments(showcasePaths.hello);
    expect(html).toContain(`>${escaped(british.format(new Date(first!.created_at)))}</time>`);
    expect(read(out, "/")).toMatch(/data-comment-count="5" data-pagefind-ignore>5 comments</);
  });

  it("gives a German post's comment pages German texts and lang (Astro finds the locale in their URL)", () => {
    const post = read(out, LONG_GERMAN);
    expect(post).toContain('<nav class="astro-comments__pages" aria-label="Kommentarseiten"');
    expect(post).toContain('<a href="/comments/de/lang/page/2/" rel="next">Weiter</a>');
    const second = read(out, "/comments/de/lang/page/2");
    expect(second).toMatch(/<html lang="de">/);
    expect(second).toContain("<title>Kommentare zu /de/lang (Seite 2 von 2)</title>");
    expect(second).toContain('aria-label="Kommentarseiten"');
    expect(second).toContain(">Zurück zum Beitrag</a>");
    expect(second).toMatch(/>Kommentare <span class="astro-comments__total" data-comments-total>\(130\)<\/span>/);
  });

  it("says 'Kommentare mit Stand vom …' when the comments come from an earlier fetch", async () => {
    const staleOut = join(mkdtempSync(join(tmpdir(), "ac-i18n-stale-")), "dist");
    const stale = await astroBuild({ ...env(), COMMENTS_API_TOKEN: "tok-wrong" }, staleOut, site.dir);
    expect(stale.code, stale.log).toBe(0);
    expect(read(staleOut, `/de${showcasePaths.hello}`)).toMatch(
      /<p class="astro-comments__stale" data-comments-stale data-pagefind-ignore>Kommentare mit Stand vom <time datetime="[^"]+">\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}<\/time>\.<\/p>/,
    );
    expect(read(staleOut, showcasePaths.hello)).toMatch(
      /data-comments-stale data-pagefind-ignore>Comments as of <time datetime="[^"]+">\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}<\/time>\.<\/p>/,
    );
  });
});

// Real `astro build`s of a copy of the example site with the opt-in extras: the orphan report,
// URL aliases (option and Astro redirects), the Atom feed, the counts JSON and moved links.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startMockServer, type MockServer } from "@astro-comments/mock-server";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { astroBuild, BUILD_TIMEOUT_MS } from "./helpers/astro-cli.ts";
import { copySite, type SiteCopy } from "./helpers/site-copy.ts";

const DOMAIN = "empty.example";
const HOSTILE = `<img src=x onerror=alert(1)> & "Mallory" ]]>`;

// The site's own config, with the integration's options from the environment so each build can vary them.
const config = `import { defineConfig } from "astro/config";
import comments from "astro-comments";

export default defineConfig({
  site: process.env.AC_TEST_NO_SITE ? undefined : "https://example.com",
  redirects: { "/old-hello": "/posts/hello-world", "/tags/[slug]": "/posts/[slug]" },
  integrations: [comments(JSON.parse(process.env.AC_TEST_OPTIONS ?? "{}"))],
});
`;

const extras = {
  aliases: { "https://example.com/posts/old-code/": "/posts/code-in-comments" },
  feeds: { atom: "/comments.xml", pageAtom: "/comments/[...page].xml", counts: "/comments/counts.json", limit: 50 },
  pages: { movedLinks: true },
};

/** Comments on a post that was moved away: more than a page holds, on a path no page builds. */
const MOVED_AWAY = 250;

let mock: MockServer;
let site: SiteCopy;
let build: { code: number; log: string; out: string };
const env = (options: object, extra: Record<string, string> = {}) => ({
  COMMENTS_DOMAIN: DOMAIN,
  COMMENTS_API_URL: mock.url,
  COMMENTS_API_TOKEN: mock.token,
  AC_TEST_OPTIONS: JSON.stringify(options),
  ...extra,
});

beforeAll(async () => {
  mock = await startMockServer({ dataset: { seed: 2, size: 10 } });
  const add = (path: string, name: string, content: string, created_at: string) =>
    mock.addComment({ domain: DOMAIN, path, name, content, created_at });
  add("/posts/hello-world/", "Ann", "On the page", "2026-02-01T10:00:00.000000Z");
  add("/old-hello", "Bob", "Left on a redirected URL", "2026-02-02T10:00:00.000000Z");
  add("/posts/old-code", "Cy", "Left on an aliased URL", "2026-02-03T10:00:00.000000Z");
  add("/posts/helo-world", "Dee", "A typo in the path", "2026-02-04T10:00:00.000000Z");
  add("/posts/helo-world/", "Eve", "Same typo", "2026-02-05T10:00:00.000000Z");
  for (let i = 0; i < MOVED_AWAY; i++) {
    add(
      "/posts/moved-away",
      `Reader ${i}`,
      `Comment ${i}`,
      new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString().replace("Z", "000Z"),
    );
  }
  add("/posts/hostile-input", HOSTILE, `<script>alert("body")</script> & ]]>`, "2026-02-06T10:00:00.000000Z");
  site = copySite("extras");
  writeFileSync(join(site.dir, "astro.config.mjs"), config);
  build = await astroBuild(env(extras), undefined, site.dir);
}, BUILD_TIMEOUT_MS);
afterAll(async () => {
  await mock?.close();
  site?.remove();
});

const parse = (xml: string) =>
  new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@",
    isArray: (name) => ["entry", "link"].includes(name),
  }).parse(xml);
const section = (html: string) => html.slice(html.indexOf("<section"), html.indexOf("</section>"));

describe("orphan report", () => {
  it("lists comments no built page shows in one warning, with the nearest page", () => {
    expect(build.code, build.log).toBe(0);
    const warnings = build.log.split("\n").filter((line) => line.includes("[WARN]"));
    expect(warnings, build.log).toHaveLength(1);
    expect(warnings[0]).toContain("[astro-comments] 252 comments on 2 paths that no built page shows");
    expect(build.log).toContain("  /posts/helo-world (2 comments): nearest built page /posts/hello-world");
    expect(build.log).toContain("  /posts/moved-away (250 comments)");
    // Aliased and redirected URLs are not orphans: their comments moved to a page.
    expect(build.log).not.toMatch(/^\s+\/(old-hello|posts\/old-code) \(/m);
  });

  it(
    'fails the build with orphans: "fail", after listing them',
    async () => {
      const failed = await astroBuild(env({ ...extras, orphans: "fail" }), undefined, site.dir);
      expect(failed.code).not.toBe(0);
      expect(failed.log).toContain("astro-comments: 252 comments on 2 paths that no built page shows");
      expect(failed.log).toContain("/posts/helo-world (2 comments): nearest built page /posts/hello-world");
    },
    BUILD_TIMEOUT_MS,
  );
});

describe("comment pages of an orphan path", () => {
  it("are removed with their moved-links file: they would link back to a post that does not exist", () => {
    expect(build.log).toContain("removed 2 comment pages of paths no built page shows");
    expect(existsSync(join(build.out, "comments/posts/moved-away"))).toBe(false);
    expect(existsSync(join(build.out, "comments/posts/moved-away.json"))).toBe(false);
    // The route's folder stays: it holds the page feeds.
    expect(existsSync(join(build.out, "comments/posts/hello-world.xml"))).toBe(true);
  });
});

describe("aliases in a real build", () => {
  it("shows comments of a redirected and an aliased URL on the new page, counted once", () => {
    const hello = section(readFileSync(join(build.out, "posts/hello-world/index.html"), "utf8"));
    expect(hello).toContain("Left on a redirected URL");
    expect(hello).toContain("data-comments-total>(2)<");
    const code = section(readFileSync(join(build.out, "posts/code-in-comments/index.html"), "utf8"));
    expect(code).toContain("Left on an aliased URL");
  });
});

describe("feeds", () => {
  it("writes a valid Atom feed of the latest comments, hostile input escaped", () => {
    const xml = readFileSync(join(build.out, "comments.xml"), "utf8");
    expect(XMLValidator.validate(xml)).toBe(true);
    const { feed } = parse(xml);
    expect(feed.id).toBe("https://example.com/comments.xml");
    expect(feed.link.find((l: Record<string, string>) => l["@rel"] === "self")["@href"]).toBe(
      "https://example.com/comments.xml",
    );
    expect(feed.updated).toBe("2026-02-06T10:00:00.000Z");
    // Dee and Eve commented on /posts/helo-world, a path no page builds: the orphan report names
    // them (above), the feed leaves them out.
    expect(feed.entry.map((e: { author: { name: string } }) => e.author.name)).toEqual([
      HOSTILE.trim(),
      "Cy",
      "Bob",
      "Ann",
    ]);
    expect(xml).not.toContain("helo-world");
    const [newest] = feed.entry;
    expect(newest.author.name).toBe(HOSTILE.trim());
    expect(newest.link[0]["@href"]).toMatch(/^https:\/\/example\.com\/posts\/hostile-input\/#comment-[0-9a-f]{8}$/);
    expect(newest.content["@type"]).toBe("html");
    expect(newest.content["#text"]).not.toContain("<script");
    expect(xml).not.toMatch(/<script|<img/);
    const moved = feed.entry.find((e: { author: { name: string } }) => e.author.name === "Bob");
    expect(moved.link[0]["@href"]).toMatch(/^https:\/\/example\.com\/posts\/hello-world\/#comment-/);
    const aliased = feed.entry.find((e: { author: { name: string } }) => e.author.name === "Cy");
    expect(aliased.link[0]["@href"]).toMatch(/^https:\/\/example\.com\/posts\/code-in-comments\/#comment-[0-9a-f]{8}$/);
  });

  it("writes one valid Atom feed per page with comments", () => {
    const xml = readFileSync(join(build.out, "comments/posts/hello-world.xml"), "utf8");
    expect(XMLValidator.validate(xml)).toBe(true);
    const { feed } = parse(xml);
    expect(feed.link.find((l: Record<string, string>) => l["@rel"] === "self")["@href"]).toBe(
      "https://example.com/comments/posts/hello-world.xml",
    );
    expect(feed.title["#text"]).toBe("Comments on example.com: /posts/hello-world");
    expect(feed.entry.map((e: { author: { name: string } }) => e.author.name)).toEqual(["Bob", "Ann"]);
    // No feed for the orphan path: no page shows its comments.
    expect(existsSync(join(build.out, "comments/posts/helo-world.xml"))).toBe(false);
    expect(existsSync(join(build.out, "comments/posts/code-in-comments.xml"))).toBe(true);
  });

  it("writes the counts JSON, page key to count, orphan paths included", () => {
    const counts = JSON.parse(readFileSync(join(build.out, "comments/counts.json"), "utf8"));
    expect(counts).toEqual({
      "/posts/code-in-comments": 1,
      "/posts/hello-world": 2,
      "/posts/helo-world": 2,
      "/posts/hostile-input": 1,
      "/posts/moved-away": MOVED_AWAY,
    });
  });

  it(
    "stops the build with one clear sentence when the feed has no site URL",
    async () => {
      const failed = await astroBuild(env(extras, { AC_TEST_NO_SITE: "1" }), undefined, site.dir);
      expect(failed.code).not.toBe(0);
      expect(failed.log).toContain(
        'astro-comments: the Atom feed (feeds.atom "/comments.xml" and feeds.pageAtom "/comments/[...page].xml") needs the site\'s URL; set `site` in astro.config, or remove the feed.',
      );
    },
    BUILD_TIMEOUT_MS,
  );
});

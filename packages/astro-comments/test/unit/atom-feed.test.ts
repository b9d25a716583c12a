import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import type { PageCommentsData } from "../../src/loader/entry-schema.ts";
import { atomEntryId, buildAtomFeed, commentCounts, escapeXml, feedComments } from "../../src/feeds/atom-xml.ts";
import { pageFeedParam, pageFeedUrl } from "../../src/feeds/feed-settings.ts";

const entry = (id: string, comments: PageCommentsData["comments"]) => ({
  id,
  data: { path: id, count: comments.reduce((n, c) => n + 1 + c.replies.length, 0), comments },
});
const comment = (
  author: string,
  createdAt: string,
  html: string,
  path: string,
  replies: PageCommentsData["comments"][number]["replies"] = [],
  id = `comment-${author.length}${createdAt.slice(8, 10)}`,
) => ({ id, author, createdAt, html, path, replies });

const hostileName = `</name><script>alert("x")</script> & 'co' \u0001\u0008`;
const entries = [
  entry("/posts/a", [
    comment(
      "Ann",
      "2026-01-02T10:00:00.000000Z",
      "<p>First &amp; <em>best</em></p>",
      "/posts/a/",
      [comment("Bob", "2026-01-03T10:00:00.000000Z", "<p>reply</p>", "/posts/a")].map(({ replies: _, ...r }) => r),
    ),
    comment("Twin", "2026-01-01T00:00:00.000000Z", "<p>same</p>", "/posts/a", [], "comment-twin"),
    comment("Twin", "2026-01-01T00:00:00.000000Z", "<p>same</p>", "/posts/a", [], "comment-twin-2"),
  ]),
  entry("/posts/b", [
    comment(
      hostileName,
      "2026-01-04T00:00:00.000000Z",
      `<p>]]&gt; <a href="https://x.example/?a=1&amp;b=2" rel="nofollow ugc noopener">x</a></p>`,
      "/posts/b",
    ),
  ]),
];

const parse = (xml: string) =>
  new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@",
    isArray: (name) => ["entry", "link"].includes(name),
  }).parse(xml);

describe("Atom feed", () => {
  it("is well-formed XML with every element RFC 4287 requires", async () => {
    const xml = await buildAtomFeed({
      title: "Comments on example.com",
      selfUrl: "https://example.com/comments.xml",
      siteUrl: "https://example.com/",
      comments: feedComments(entries),
      limit: 50,
      trailingSlash: false,
    });
    expect(XMLValidator.validate(xml)).toBe(true);
    const { feed } = parse(xml);
    expect(feed["@xmlns"]).toBe("http://www.w3.org/2005/Atom");
    expect(feed.id).toBe("https://example.com/comments.xml");
    expect(feed.title["#text"]).toBe("Comments on example.com");
    expect(feed.updated).toBe("2026-01-04T00:00:00.000Z");
    expect(feed.link.find((l: Record<string, string>) => l["@rel"] === "self")["@href"]).toBe(
      "https://example.com/comments.xml",
    );
    expect(feed.entry).toHaveLength(5);
    for (const e of feed.entry) {
      expect(e.id).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(e.title["#text"]).toBeTruthy();
      expect(e.updated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(e.author.name).toBeTruthy();
      expect(e.link[0]["@href"]).toMatch(/^https:\/\/example\.com\/posts\/[ab]#comment-[\w-]+$/);
      expect(e.content["@type"]).toBe("html");
    }
    // Newest first; ids unique (twins disambiguated).
    expect(feed.entry.map((e: { updated: string }) => e.updated)).toEqual(
      [...feed.entry.map((e: { updated: string }) => e.updated)].sort().reverse(),
    );
    expect(new Set(feed.entry.map((e: { id: string }) => e.id)).size).toBe(5);
  });

  it("keeps hostile names and bodies escaped text", async () => {
    const xml = await buildAtomFeed({
      title: "t",
      selfUrl: "https://example.com/c.xml",
      siteUrl: "https://example.com/",
      comments: feedComments(entries),
      limit: 1,
      trailingSlash: false,
    });
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toContain("<script>");
    const { feed } = parse(xml);
    const [only] = feed.entry;
    // The parser hands back (trimmed) text: the markup is the name's text, control characters dropped.
    expect(only.author.name).toBe(`</name><script>alert("x")</script> & 'co'`);
    expect(only.content["#text"]).toBe(
      `<p>]]&gt; <a href="https://x.example/?a=1&amp;b=2" rel="nofollow ugc noopener">x</a></p>`,
    );
  });

  it("gives stable ids: the same comment keeps its id when an alias moves it or the body is re-rendered", async () => {
    const [a] = feedComments(entries);
    const moved: typeof a = { ...a!, page: "/new-home", html: "<p>re-rendered</p>" };
    expect(await atomEntryId(moved!)).toBe(await atomEntryId(a!));
    expect(await atomEntryId({ ...a!, path: "/posts/other" })).not.toBe(await atomEntryId(a!));
  });

  it("links each comment on its post as the site's own links are written: the trailing slash, the path encoded", async () => {
    const onPost = (page: string) =>
      feedComments([entry(page, [comment("Ann", "2026-01-02T10:00:00.000000Z", "<p>hi</p>", page)])]);
    const link = async (page: string, trailingSlash: boolean) => {
      const xml = await buildAtomFeed({
        title: "t",
        selfUrl: "https://example.com/docs/c.xml",
        siteUrl: "https://example.com/docs/",
        comments: onPost(page),
        limit: 1,
        trailingSlash,
      });
      return parse(xml).feed.entry[0].link[0]["@href"] as string;
    };
    expect(await link("/docs/posts/a", true)).toBe("https://example.com/docs/posts/a/#comment-302");
    expect(await link("/docs/posts/a", false)).toBe("https://example.com/docs/posts/a#comment-302");
    // A post whose path holds "#" or "?": the link still leads to that post, and to the comment on it.
    expect(await link("/docs/c# tips?", true)).toBe("https://example.com/docs/c%23%20tips%3F/#comment-302");
  });

  it("is valid with no comments at all", async () => {
    const xml = await buildAtomFeed({
      title: "t",
      selfUrl: "https://example.com/c.xml",
      siteUrl: "https://example.com/",
      comments: [],
      limit: 50,
      trailingSlash: false,
    });
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(parse(xml).feed.updated).toBe("1970-01-01T00:00:00.000Z");
  });

  it("escapes the five XML specials", () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;");
  });
});

describe("counts JSON", () => {
  it("maps page key to count, keys sorted", () => {
    expect(
      JSON.stringify(commentCounts([entries[1]!, entries[0]!].map(({ id, data }) => [id, data.count] as const))),
    ).toBe('{"/posts/a":4,"/posts/b":1}');
  });
});

describe("per-page feed paths", () => {
  const settings = {
    title: "t",
    limit: 50,
    selfUrl: "",
    siteUrl: "https://example.com/docs/",
    base: "/docs/",
    pagePattern: "/comments/[...page].xml",
    trailingSlash: true,
  };

  it("names a page's feed by its key below the base, the home page 'index'", () => {
    expect(pageFeedParam("/docs/posts/x", "/docs/")).toBe("posts/x");
    expect(pageFeedParam("/docs", "/docs/")).toBe("index");
    expect(pageFeedParam("/", "/")).toBe("index");
    expect(pageFeedParam("/posts/x", "/")).toBe("posts/x");
    expect(pageFeedUrl(settings, "posts/x")).toBe("https://example.com/docs/comments/posts/x.xml");
    expect(pageFeedUrl(settings, "c# tips?")).toBe("https://example.com/docs/comments/c%23%20tips%3F.xml");
    expect(pageFeedUrl(settings, "posts/café")).toBe("https://example.com/docs/comments/posts/caf%C3%A9.xml");
  });
});

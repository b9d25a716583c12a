import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { buildAtomFeed, shownEntriesOnly, type FeedComment } from "../../src/feeds/atom-xml.ts";

const comment = (page: string, author: string, day: number, html = `<p>${author}</p>`): FeedComment => ({
  page,
  id: `comment-${author}`,
  author,
  createdAt: `2026-01-${String(day).padStart(2, "0")}T10:00:00.000000Z`,
  html,
  path: page,
});
const comments = [
  comment("/posts/a", "Ann", 1),
  comment("/gone", "Orphan", 9, "<p>line one\nline two\r\nthree</p>"),
  comment("/posts/b%", "Bea", 5),
  comment("/café & co", "Cy", 3, "<p>  <entry>\n  </entry>\n</feed></p>"),
  comment("/gone", "Orphan2", 8),
];
const feed = (limit = Number.POSITIVE_INFINITY) =>
  buildAtomFeed({
    title: "t",
    selfUrl: "https://example.com/c.xml",
    siteUrl: "https://example.com/",
    comments,
    limit,
    trailingSlash: true,
  });

async function* linesOf(text: string) {
  const lines = text.split("\n");
  lines.pop();
  yield* lines;
}
async function trimmed(xml: string, shown: (key: string) => boolean, limit: number): Promise<string> {
  let out = "";
  for await (const line of shownEntriesOnly(linesOf(xml), shown, limit)) out += `${line}\n`;
  return out;
}
const authors = (xml: string) => {
  const parsed = new XMLParser({ isArray: (name) => name === "entry" }).parse(xml).feed;
  return {
    updated: parsed.updated as string,
    authors: ((parsed.entry ?? []) as Array<{ author: { name: string } }>).map((e) => e.author.name),
  };
};

describe("a feed trimmed to what the site shows", () => {
  it("drops the entries of unshown pages, keeps the newest `limit`, and dates the feed by its newest entry", async () => {
    const xml = await trimmed(await feed(), (key) => key !== "/gone", 2);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(authors(xml)).toEqual({ updated: "2026-01-05T10:00:00.000Z", authors: ["Bea", "Cy"] });
  });

  it("is byte for byte the feed a build would make of the shown comments alone", async () => {
    const shown = comments.filter((c) => c.page !== "/gone");
    const direct = await buildAtomFeed({
      title: "t",
      selfUrl: "https://example.com/c.xml",
      siteUrl: "https://example.com/",
      comments: shown,
      limit: 3,
      trailingSlash: true,
    });
    expect(await trimmed(await feed(), (key) => key !== "/gone", 3)).toBe(direct);
    // With everything shown, it is the limited feed itself, bodies' line breaks and all.
    expect(await trimmed(await feed(), () => true, 50)).toBe(await feed(50));
  });

  it("is a valid empty feed when no page is shown", async () => {
    const xml = await trimmed(await feed(), () => false, 50);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(authors(xml)).toEqual({ updated: "1970-01-01T00:00:00.000Z", authors: [] });
  });
});

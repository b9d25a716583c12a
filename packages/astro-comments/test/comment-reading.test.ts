/// <reference lib="dom" />
// What a reader who does not see the page as its author did gets from the comments markup and the
// stylesheet, read from Chromium itself: the accessibility tree a screen reader lists articles
// from, the linked comment under forced colours (Windows High Contrast), and the direction of
// right-to-left text on a left-to-right page and the reverse. No build: the markup is the one
// <Comments> renders (render/comment-markup.ts), in a section marked up as the component does.
import type { CDPSession, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { builtInMessages } from "../src/i18n/messages.ts";
import { commentItemsHtml } from "../src/render/comment-markup.ts";
import type { RenderedComment } from "../src/render/comment-tree.ts";
import { chromiumSkipped, stylesheet, suiteChromium } from "./helpers/stylesheet-page.ts";

const browser = suiteChromium();

const comment = (id: string, author: string, createdAt: string, html: string): RenderedComment => ({
  id,
  author,
  createdAt,
  html,
  path: "/posts/hello",
});

const ann = comment("comment-0000000a", "Ann", "2026-01-03T10:00:00.000000Z", "<p>Nice post.</p>");
const hebrew = comment("comment-0000000b", "דנה", "2026-01-04T10:00:00.000000Z", "<p>שלום, גרסה 2.0 עובדת!</p>");
const arabicReply = comment("comment-0000000c", "سارة", "2026-01-05T10:00:00.000000Z", "<p>شكرا جزيلا، 42 مرة!</p>");
const english = comment("comment-0000000d", "Bob", "2026-01-06T10:00:00.000000Z", "<p>Version 2.0 works, thanks!</p>");

const dateFormat = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", dateStyle: "medium" });
const formatDate = (createdAt: string) => dateFormat.format(new Date(createdAt));

/** A page in `dir` holding the comments, styled by the package's stylesheet. */
async function open(dir: "ltr" | "rtl", comments: RenderedComment[], hash = ""): Promise<Page> {
  const page = await browser().newPage();
  const items = commentItemsHtml(comments, { formatDate, messages: builtInMessages.en! });
  await page.setContent(
    `<!doctype html><html lang="${dir === "ltr" ? "en" : "he"}" dir="${dir}"><head><style>${stylesheet}</style></head><body>` +
      `<section class="astro-comments" data-comments aria-labelledby="h"><h2 id="h">Comments</h2>` +
      `<ol class="astro-comments__list">${items}</ol></section></body></html>`,
  );
  // setContent cannot carry a fragment: the :target is set as a link would.
  if (hash) await page.evaluate((id) => (location.hash = id), hash);
  return page;
}

interface AXNode {
  role?: { value: string };
  name?: { value: string };
  ignored?: boolean;
}

/** The accessible names of the page's article nodes, sorted (CDP lists nodes in no set order). */
async function articleNames(page: Page): Promise<string[]> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as { nodes: AXNode[] };
  await cdp.detach();
  return nodes
    .filter((node) => !node.ignored && node.role?.value === "article")
    .map((node) => node.name?.value ?? "")
    .sort();
}

describe.skipIf(chromiumSkipped)("the comments as a screen reader, forced colours and bidi text get them", () => {
  it("names each article by its author and date, from the text shown, without repeating it", async () => {
    const page = await open("ltr", [{ ...ann, replies: [arabicReply] }, english]);
    expect(await articleNames(page)).toEqual(["Ann 3 Jan 2026", "Bob 6 Jan 2026", "سارة 5 Jan 2026"]);
    // The name points at the header's own text: no hidden copy a reader in browse mode hears twice.
    const headers = await page.evaluate(() =>
      [...document.querySelectorAll("article[data-comment] > header")].map((header) => header.textContent),
    );
    expect(headers).toEqual(["Ann 3 Jan 2026", "سارة 5 Jan 2026", "Bob 6 Jan 2026"]);
    await page.close();
  });

  it("keeps the linked comment apart from the others under forced colours", async () => {
    const page = await open("ltr", [ann, english], "comment-0000000d");
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setEmulatedMedia", { features: [{ name: "forced-colors", value: "active" }] });
    expect(await page.evaluate(() => matchMedia("(forced-colors: active)").matches)).toBe(true);
    const look = () =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>("article[data-comment]")].map((article) => {
          const style = getComputedStyle(article);
          return {
            target: article.matches(":target"),
            outline: `${style.outlineStyle} ${style.outlineWidth}`,
            border: `${style.borderTopStyle} ${style.borderTopWidth}`,
          };
        }),
      );
    const [other, target] = await look();
    expect(target!.target).toBe(true);
    expect(other!.target).toBe(false);
    // Forced colours replace colours and drop shadows; what tells the two apart must be a style or a width.
    expect(target!.outline).not.toBe(other!.outline);
    expect(target!.outline).toMatch(/^solid [1-9]/);
    await cdp.send("Emulation.setEmulatedMedia", { features: [{ name: "forced-colors", value: "none" }] });
    // Without forced colours the highlight is the border colour and shadow it always was.
    expect((await look()).map((article) => article.outline.split(" ")[0])).toEqual(["none", "none"]);
    await cdp.detach();
    await page.close();
  });

  it.each([
    ["an English page", "ltr", [hebrew, english], ["rtl", "ltr"]],
    ["a Hebrew page", "rtl", [hebrew, english], ["rtl", "ltr"]],
  ] as const)(
    "on %s, gives each body and author name the direction of its own text",
    async (_, dir, comments, wanted) => {
      const page = await open(dir, [...comments]);
      const directions = await page.evaluate(() =>
        [...document.querySelectorAll("article[data-comment]")].map((article) => {
          const paragraph = article.querySelector("[data-comment-body] p")!;
          const text = document.createRange();
          text.selectNodeContents(paragraph);
          return {
            body: getComputedStyle(paragraph).direction,
            author: getComputedStyle(article.querySelector("[data-comment-author]")!).direction,
            // What a reader sees: right-to-left text starts at the paragraph's right edge.
            alignedRight: Math.abs(paragraph.getBoundingClientRect().right - text.getBoundingClientRect().right) < 1,
          };
        }),
      );
      expect(directions.map((d) => d.body)).toEqual(wanted);
      expect(directions.map((d) => d.author)).toEqual(wanted);
      expect(directions.map((d) => d.alignedRight)).toEqual(wanted.map((w) => w === "rtl"));
      await page.close();
    },
  );
});

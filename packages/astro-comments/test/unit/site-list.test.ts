// The list the loader makes when it stores a post's comments (issue 40): what <Comments> writes on
// a page in the site's language, and the key that keeps a list made under other settings off the page.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { resolveOptions } from "../../src/integration/options.ts";
import type { StoredComment } from "../../src/loader/entry-schema.ts";
import { commentItemsHtml, LIST_VERSION } from "../../src/render/comment-markup.ts";
import type { PagesSettings } from "../../src/render/comment-pages.ts";
import { commentView } from "../../src/render/comment-view.ts";
import { localeSettings, pageLocale } from "../../src/i18n/page-locale.ts";
import {
  intlDataVersion,
  listFits,
  listKey,
  siteListHtml,
  siteLocale,
  type ListSettings,
} from "../../src/render/site-list.ts";

const pages: PagesSettings = { size: 10, route: "/comments", base: "/", trailingSlash: true, movedLinks: false };

function settings(user: Record<string, unknown> = {}, split: PagesSettings | false = pages): ListSettings {
  const { order, dateFormat, heading, emptyText, messages } = resolveOptions(user, {}, { requireCredentials: false });
  return { order, dateFormat, heading, emptyText, messages, pages: split };
}

const comment = (n: number, replies = 0): StoredComment => ({
  id: `comment-${n}`,
  author: `Reader <${n}> & "co"`,
  createdAt: `2026-01-0${1 + (n % 9)}T10:20:30.123456Z`,
  html: `<p>Comment ${n}</p>`,
  path: "/posts/a",
  replies: Array.from({ length: replies }, (_, i) => ({
    id: `comment-${n}-${i}`,
    author: "Replier",
    createdAt: "2026-02-01T00:00:00.000000Z",
    html: `<p>Reply ${i}</p>`,
    path: "/posts/a",
  })),
});

describe("a post's made list", () => {
  it("is the list the page would render: in the configured order, with the site's dates and texts", () => {
    const comments = [comment(1, 2), comment(2)];
    const oldest = settings();
    const view = commentView(siteLocale(oldest), oldest.dateFormat);
    expect(siteListHtml(comments, oldest)).toBe(commentItemsHtml(comments, view));
    const newest = settings({ order: "newest-first", dateFormat: { locale: "de-DE", dateStyle: "full" } });
    const html = siteListHtml(comments, newest)!;
    expect(html.indexOf('id="comment-2"')).toBeLessThan(html.indexOf('id="comment-1"'));
    expect(html).toContain(
      new Intl.DateTimeFormat("de-DE", { dateStyle: "full", timeZone: "UTC" }).format(new Date("2026-01-02T10:20:30Z")),
    );
    expect(html).toContain("Reader &lt;1&gt; &amp; &quot;co&quot;");
  });

  it("is not made for a post split over comment pages, however its comments are spread, nor for a huge one", () => {
    const ten = Array.from({ length: 10 }, (_, n) => comment(n));
    expect(siteListHtml(ten, settings())).toBeDefined();
    expect(siteListHtml([...ten, comment(11)], settings())).toBeUndefined();
    expect(siteListHtml([comment(1, 10)], settings())).toBeUndefined();
    expect(siteListHtml([comment(1, 50)], settings({}, false))).toContain('id="comment-1-49"');
    // Without comment pages, a huge post renders its list in pieces on its page: none is made whole.
    expect(siteListHtml([comment(1, 999)], settings({}, false))).toBeDefined();
    expect(siteListHtml([comment(1, 1_000)], settings({}, false))).toBeUndefined();
  });

  it("is made under a key that changes with every setting that shapes it, and only with those", () => {
    const base = listKey(settings());
    expect(listKey(settings())).toBe(base);
    expect(listKey(settings({ injectStyles: false, searchIndex: "none" }))).toBe(base);
    // Texts the list does not show: the heading, the empty text, the page navigation's.
    expect(listKey(settings({ heading: "Discussion", messages: { en: { next: "Later", emptyText: "None" } } }))).toBe(
      base,
    );
    for (const changed of [
      settings({ order: "newest-first" }),
      settings({ dateFormat: { timeZone: "Europe/Berlin" } }),
      settings({ dateFormat: { locale: "en-GB" } }),
      settings({ messages: { en: { permalink: "{date}, by {author}" } } }),
      settings({}, { ...pages, size: 20 }),
      settings({}, false),
    ]) {
      expect(listKey(changed)).not.toBe(base);
    }
    expect(base).toContain(JSON.stringify(LIST_VERSION));
  });

  it("is made again under another runtime's date data: a Node with another ICU or CLDR writes dates its own way", () => {
    const here = listKey(settings());
    expect(listKey(settings(), intlDataVersion())).toBe(here);
    expect(intlDataVersion()).toBe(`${process.versions.icu} ${process.versions.cldr}`);
    expect(listKey(settings(), "77.1 47.0")).not.toBe(here);
  });

  it("is shown on a page in the site's language, whatever its locale is called, and nowhere else", () => {
    const site = settings({ dateFormat: { locale: "en-GB" } });
    const page = (locale: string | undefined, s = site) => pageLocale(locale, localeSettings(s));
    expect(listFits(page(undefined), siteLocale(site))).toBe(true);
    // i18n routing's default locale on an "en-GB" site: the site's dates and texts all the same.
    expect(listFits(page("en"), siteLocale(site))).toBe(true);
    expect(listFits(page("de"), siteLocale(site))).toBe(false);
    const british = settings({
      dateFormat: { locale: "en-GB" },
      messages: { "en-US": { permalink: "{date} by {author}" } },
    });
    expect(listFits(page("en-US", british), siteLocale(british))).toBe(false);
  });

  it("keeps the markup this LIST_VERSION was made with: a change must bump it, or stale lists would show", () => {
    const s = settings();
    const html = commentItemsHtml([comment(1, 2), comment(2)], commentView(siteLocale(s), s.dateFormat));
    // When the markup changes on purpose: bump LIST_VERSION in src/render/comment-markup.ts, then this digest.
    expect([LIST_VERSION, createHash("sha256").update(html).digest("hex").slice(0, 16)]).toEqual([
      "1",
      "ba4143e25b2f3694",
    ]);
  });
});

// The texts a reader sees, per locale: built-in catalogs, plural rules, overrides, and which
// locale a page gets.
import { describe, expect, it } from "vitest";
import { builtInMessages, fillTemplate, formatCount, resolveMessages } from "../../src/i18n/messages.ts";
import { pageLocale, type LocaleSettings } from "../../src/i18n/page-locale.ts";
import { resolveOptions } from "../../src/integration/options.ts";

const site: LocaleSettings = { dateLocale: "en", heading: "Comments", emptyText: "No comments yet.", messages: {} };

describe("message catalogs", () => {
  it("ship English, German, French and Spanish, each complete and with the same placeholders", () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const english = builtInMessages["en"]!;
    expect(Object.keys(builtInMessages).sort()).toEqual(["de", "en", "es", "fr"]);
    for (const [language, messages] of Object.entries(builtInMessages)) {
      expect(Object.keys(messages).sort(), language).toEqual(Object.keys(english).sort());
      for (const key of ["replies", "permalink", "staleAsOf"] as const)
        expect(placeholders(messages[key]), `${language} ${key}`).toEqual(placeholders(english[key]));
      for (const form of Object.values(messages.count)) expect(form, language).toContain("{count}");
    }
  });

  it("count with each language's plural rules and number format", () => {
    const count = (language: string, n: number) => formatCount(builtInMessages[language]!.count, n, language);
    expect([count("en", 0), count("en", 1), count("en", 2), count("en", 1234)]).toEqual([
      "0 comments",
      "1 comment",
      "2 comments",
      "1,234 comments",
    ]);
    expect([count("de", 0), count("de", 1), count("de", 2), count("de", 1234)]).toEqual([
      "0 Kommentare",
      "1 Kommentar",
      "2 Kommentare",
      "1.234 Kommentare",
    ]);
    // French: 0 and 1 are singular, a round million takes "de".
    expect([count("fr", 0), count("fr", 1), count("fr", 2), count("fr", 1_000_000)]).toEqual([
      "0 commentaire",
      "1 commentaire",
      "2 commentaires",
      "1\u202f000\u202f000 de commentaires",
    ]);
    expect([count("es", 1), count("es", 5), count("es", 1_000_000)]).toEqual([
      "1 comentario",
      "5 comentarios",
      "1.000.000 de comentarios",
    ]);
  });

  it("fall back from a region to its language, and from an unknown language to English", () => {
    expect(resolveMessages("de-CH").heading).toBe("Kommentare");
    expect(resolveMessages("pt-BR")).toEqual(builtInMessages["en"]);
  });

  it("take the site's overrides, by exact tag over language, over the built-in texts", () => {
    const overrides = {
      de: { heading: "Leserkommentare" },
      "de-AT": { emptyText: "Noch nix." },
      nl: { heading: "Reacties", count: { one: "{count} reactie", other: "{count} reacties" } },
    };
    expect(resolveMessages("de-AT", overrides)).toMatchObject({
      heading: "Leserkommentare",
      emptyText: "Noch nix.",
      replies: "Antworten auf {author}",
    });
    expect(resolveMessages("de", overrides).emptyText).toBe("Noch keine Kommentare.");
    const dutch = resolveMessages("nl", overrides);
    expect([dutch.heading, dutch.emptyText, formatCount(dutch.count, 3, "nl")]).toEqual([
      "Reacties",
      "No comments yet.",
      "3 reacties",
    ]);
  });

  it("fill placeholders once, leaving unknown ones and the values' own braces alone", () => {
    expect(fillTemplate("Replies to {author} {x}", { author: "{date} & <b>" })).toBe("Replies to {date} & <b> {x}");
  });
});

describe("a page's locale", () => {
  it("without i18n routing is the site's: dateFormat.locale for dates, its language for texts", () => {
    const page = pageLocale(undefined, { ...site, dateLocale: "en-GB" });
    expect([page.locale, page.dateLocale, page.messages.heading]).toEqual(["en-GB", "en-GB", "Comments"]);
  });

  it("in the site's language keeps the site's regional date format; in another, takes its own", () => {
    const settings = { ...site, dateLocale: "en-GB" };
    expect(pageLocale("en", settings).dateLocale).toBe("en-GB");
    const german = pageLocale("de", settings);
    expect([german.locale, german.dateLocale, german.messages.heading, german.messages.emptyText]).toEqual([
      "de",
      "de",
      "Kommentare",
      "Noch keine Kommentare.",
    ]);
  });

  it("reads Astro locale codes Intl spells differently, and ignores one that is no locale", () => {
    expect(pageLocale("pt_BR", site).locale).toBe("pt-BR");
    expect(pageLocale("de-ch", site).locale).toBe("de-CH");
    expect(pageLocale("not a locale!", site).locale).toBe("en");
  });

  it("applies the heading and emptyText options to the site's language only, under messages", () => {
    const settings = {
      ...site,
      heading: "Discussion",
      emptyText: "Be the first.",
      messages: { en: { emptyText: "Say something." } },
    };
    expect(pageLocale("en", settings).messages).toMatchObject({ heading: "Discussion", emptyText: "Say something." });
    expect(pageLocale("de", settings).messages).toMatchObject({
      heading: "Kommentare",
      emptyText: "Noch keine Kommentare.",
    });
    // The options' defaults are the English texts, not overrides: a German site stays German.
    expect(pageLocale(undefined, { ...site, dateLocale: "de-DE" }).messages.heading).toBe("Kommentare");
  });
});

describe("the messages option", () => {
  const env = { COMMENTS_DOMAIN: "example.com", COMMENTS_API_URL: "https://api.example/", COMMENTS_API_TOKEN: "t" };

  it("defaults to no overrides and keeps what is given", () => {
    expect(resolveOptions({}, env).messages).toEqual({});
    const messages = { de: { heading: "Leserkommentare", count: { one: "{count} Stimme", other: "{count} Stimmen" } } };
    expect(resolveOptions({ messages }, env).messages).toEqual(messages);
  });

  it("names a misspelt text and plural forms without `other` in the one config error", () => {
    expect(() => resolveOptions({ messages: { de: { headline: "x" } } }, env)).toThrowError(
      /"headline" is not an option of "messages.de"/,
    );
    expect(() => resolveOptions({ messages: { de: { count: { one: "{count} Stimme" } } } }, env)).toThrowError(
      /"messages.de.count.other"/,
    );
  });
});

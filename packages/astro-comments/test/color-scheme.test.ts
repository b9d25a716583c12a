/// <reference lib="dom" />
// The darkMode option in Chromium, without a build: the stylesheet and a section marked as
// <Comments> marks it, on a page whose <html> carries a site toggle or none, under a light or dark
// system. What is asserted is the section's computed color-scheme.
import { describe, expect, it } from "vitest";
import { colorSchemeAttribute, customColorSchemeCss } from "../src/render/color-scheme.ts";
import type { RenderSettings } from "../src/integration/options.ts";
import { chromiumSkipped, stylesheet, suiteChromium } from "./helpers/stylesheet-page.ts";

const browser = suiteChromium();

/** The section's color-scheme for one darkMode, `<html>` attributes and system setting. */
async function schemeOf(
  mode: RenderSettings["darkMode"],
  html: string,
  system: "light" | "dark",
  body = "",
): Promise<string> {
  const page = await browser().newPage({ colorScheme: system });
  const attribute = colorSchemeAttribute(mode);
  const custom = customColorSchemeCss(mode);
  await page.setContent(
    `<!doctype html><html ${html}><head><style>${stylesheet}</style></head><body ${body}>` +
      `<section class="astro-comments" data-comments${attribute ? ` data-comments-scheme="${attribute}"` : ""}>${custom ? `<style>${custom}</style>` : ""}<h2>Comments</h2></section></body></html>`,
  );
  const scheme = await page.evaluate(() => getComputedStyle(document.querySelector("[data-comments]")!).colorScheme);
  await page.close();
  return scheme;
}

describe.skipIf(chromiumSkipped)("darkMode: the section's color-scheme", () => {
  it('"auto" keeps a page without dark mode light on a dark system, and follows data-theme and the dark/light class both ways', async () => {
    expect(await schemeOf("auto", "", "dark")).toBe("normal");
    expect(await schemeOf("auto", 'style="color-scheme: light dark"', "dark")).toBe("light dark");
    expect(await schemeOf("auto", 'data-theme="dark"', "light")).toBe("dark");
    expect(await schemeOf("auto", 'data-theme="light"', "dark")).toBe("light");
    expect(await schemeOf("auto", 'class="dark"', "light")).toBe("dark");
    expect(await schemeOf("auto", 'class="light"', "dark")).toBe("light");
  });

  it('"media" follows the system unless <html> says light', async () => {
    expect(await schemeOf("media", "", "dark")).toBe("dark");
    expect(await schemeOf("media", "", "light")).toBe("normal");
    expect(await schemeOf("media", 'data-theme="light"', "dark")).toBe("light");
    expect(await schemeOf("media", 'class="dark"', "light")).toBe("dark");
  });

  it("false declares nothing, and a site's own selectors switch it both ways", async () => {
    expect(await schemeOf(false, 'data-theme="dark"', "dark")).toBe("normal");
    const toggle = { dark: "body.mode-dark", light: "body.mode-light" };
    expect(await schemeOf(toggle, "", "light", 'class="mode-dark"')).toBe("dark");
    expect(await schemeOf(toggle, 'style="color-scheme: dark"', "dark", 'class="mode-light"')).toBe("light");
    expect(await schemeOf(toggle, 'data-theme="dark"', "light")).toBe("normal");
  });
});

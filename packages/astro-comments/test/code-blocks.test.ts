/// <reference lib="dom" />
// A comment's code blocks stay apart when a theme's script wraps each <pre>: AstroPaper 6.1.0's
// copy button puts every <pre> of a post page in a <div style="position: relative">, and two code
// blocks in one comment touched (0 px). Chromium, the stylesheet, and the theme's wrapping redone.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { chromiumSkipped, stylesheet, suiteChromium } from "./helpers/stylesheet-page.ts";

const browser = suiteChromium();

const body =
  "<p>Two ways:</p>" +
  '<pre class="language-js"><code class="language-js">first();</code></pre>' +
  '<pre class="language-js"><code class="language-js">second();</code></pre>' +
  "<p>Either works.</p>";

/** What AstroPaper's PostDetails script does to every <pre> on a post page (its attachCopyButtons). */
function wrapLikeAstroPaper() {
  for (const codeBlock of Array.from(document.querySelectorAll("pre"))) {
    const wrapper = document.createElement("div");
    wrapper.style.position = "relative";
    const copyButton = document.createElement("button");
    copyButton.className = "copy-code absolute end-3 -top-3 rounded px-2 py-1 text-xs leading-4 font-medium";
    copyButton.innerHTML = "Copy";
    codeBlock.setAttribute("tabindex", "0");
    codeBlock.appendChild(copyButton);
    codeBlock.parentNode?.insertBefore(wrapper, codeBlock);
    wrapper.appendChild(codeBlock);
  }
}

/** The vertical space between each <p>/<pre> of the body and the next, in px. */
const gaps = (page: Page) =>
  page.evaluate(() => {
    const blocks = [...document.querySelectorAll("[data-comment-body] :is(p, pre)")];
    return blocks
      .slice(1)
      .map((block, i) => block.getBoundingClientRect().top - blocks[i]!.getBoundingClientRect().bottom);
  });

async function open(): Promise<Page> {
  const page = await browser().newPage();
  await page.setContent(
    `<!doctype html><html><head><style>${stylesheet}</style></head><body>` +
      `<section class="astro-comments" data-comments><div class="astro-comments__body" data-comment-body>${body}</div></section></body></html>`,
  );
  return page;
}

describe.skipIf(chromiumSkipped)("code blocks in a comment body", () => {
  it("keep the body's block spacing when a script wraps each <pre> in a div, as AstroPaper's does", async () => {
    const page = await open();
    // The body's own spacing, unwrapped: paragraph→code, code→code, code→paragraph.
    const spacing = await gaps(page);
    expect(spacing).toHaveLength(3);
    expect(Math.min(...spacing)).toBeGreaterThan(0);

    await page.evaluate(wrapLikeAstroPaper);
    expect(
      await page.evaluate(() =>
        [...document.querySelectorAll("[data-comment-body] pre")].map(
          (pre) => (pre.parentElement as HTMLElement).style.position,
        ),
      ),
    ).toEqual(["relative", "relative"]);
    const wrapped = await gaps(page);
    expect(wrapped).toHaveLength(3);
    for (const [i, gap] of wrapped.entries())
      expect(gap, `gap ${i}: ${wrapped.join(", ")}`).toBeGreaterThanOrEqual(spacing[i]! - 0.5);
    await page.close();
  });
});

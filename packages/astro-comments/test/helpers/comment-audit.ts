/// <reference lib="dom" />
// What a reader sees of a comments section in a real browser, measured from computed styles:
// contrast of each kind of text over the background actually behind it, the spacing and list
// markers of a comment body, the heading's size, overflow, and axe-core's verdict on the section.
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

interface Contrast {
  /** What was measured, e.g. "name" or "link". */
  role: string;
  text: string;
  ratio: number;
  /** 3 for large text (24 px, or 18.66 px bold), else 4.5 (WCAG 2 AA). */
  needed: number;
  foreground: string;
  background: string;
}

export interface SectionAudit {
  contrast: Contrast[];
  /** How far each list's first item starts right of the body's first paragraph, in pixels. */
  listIndent: number[];
  /** Pixels between each pair of neighbouring blocks of the first comment's body, e.g. "p→ul: 12". */
  gaps: Record<string, number>;
  listStyles: string[];
  headingPx: number;
  headingWeight: number;
  bodyPx: number;
  overflow: number;
}

/** Runs in the page: every number the assertions need, from getComputedStyle. */
function measure(): SectionAudit {
  const canvas = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
  // Any CSS colour (color-mix(), oklab(), color(srgb …)) to RGBA through the canvas.
  const rgba = (css: string): [number, number, number, number] => {
    canvas.clearRect(0, 0, 1, 1);
    canvas.fillStyle = "#000";
    canvas.fillStyle = css;
    canvas.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = canvas.getImageData(0, 0, 1, 1).data;
    return [r!, g!, b!, a! / 255];
  };
  const over = (top: number[], bottom: number[]) =>
    [0, 1, 2].map((i) => top[i]! * top[3]! + bottom[i]! * (1 - top[3]!)).concat(1);
  const probe = document.createElement("div");
  probe.style.cssText = "background: Canvas; position: absolute;";
  document.documentElement.append(probe);
  const canvasColour = rgba(getComputedStyle(probe).backgroundColor);
  probe.remove();
  // The page's canvas, then every background from the root down to the element.
  const backgroundOf = (element: Element): number[] => {
    const layers: number[][] = [];
    for (let node: Element | null = element; node; node = node.parentElement)
      layers.push(rgba(getComputedStyle(node).backgroundColor));
    return layers.reverse().reduce((below, layer) => over(layer, below), canvasColour as number[]);
  };
  const luminance = (c: number[]) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const hex = (c: number[]) =>
    `#${c
      .slice(0, 3)
      .map((v) => Math.round(v).toString(16).padStart(2, "0"))
      .join("")}`;
  const section = document.querySelector("[data-comments]")!;
  // Three of each kind, and one of each token class: contrast differs between hues.
  const sample = (selector: string) => {
    const all = [...section.querySelectorAll(selector)];
    if (!selector.includes(".token")) return all.slice(0, 3);
    const byClass = new Map(all.map((element) => [element.className, element]));
    return [...byClass.values()];
  };
  const contrast = (role: string, selector: string): Contrast[] =>
    sample(selector).map((element) => {
      const style = getComputedStyle(element);
      const background = backgroundOf(element);
      const foreground = over(rgba(style.color), background);
      const [hi, lo] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
      const px = Number.parseFloat(style.fontSize);
      const large = px >= 24 || (px >= 18.66 && Number(style.fontWeight) >= 700);
      return {
        role,
        text: (element.textContent ?? "").trim().slice(0, 30),
        ratio: Math.round(((hi! + 0.05) / (lo! + 0.05)) * 100) / 100,
        needed: large ? 3 : 4.5,
        foreground: hex(foreground),
        background: hex(background),
      };
    });
  const body = section.querySelector("[data-comment-body]")!;
  const blocks = [...body.children];
  const gaps: Record<string, number> = {};
  for (let i = 1; i < blocks.length; i++) {
    gaps[`${blocks[i - 1]!.localName}→${blocks[i]!.localName}`] = Math.round(
      blocks[i]!.getBoundingClientRect().top - blocks[i - 1]!.getBoundingClientRect().bottom,
    );
  }
  const lists = [...body.querySelectorAll("ul, ol")];
  const heading = section.querySelector(".astro-comments__heading")!;
  const paragraph = body.querySelector("p") ?? body;
  return {
    contrast: [
      ...contrast("heading", ".astro-comments__heading"),
      ...contrast("count", ".astro-comments__total"),
      ...contrast("name", "[data-comment-author]"),
      ...contrast("date", "[data-comment-permalink] time"),
      ...contrast("body", "[data-comment-body] p"),
      ...contrast("link", "[data-comment-body] a"),
      ...contrast("code", "[data-comment-body] pre .token"),
    ],
    gaps,
    listStyles: lists.map((list) => getComputedStyle(list).listStyleType),
    listIndent: lists.map(
      (list) =>
        (list.querySelector("li") ?? list).getBoundingClientRect().left - paragraph.getBoundingClientRect().left,
    ),
    headingPx: Number.parseFloat(getComputedStyle(heading).fontSize),
    headingWeight: Number(getComputedStyle(heading).fontWeight),
    bodyPx: Number.parseFloat(getComputedStyle(paragraph).fontSize),
    overflow: document.documentElement.scrollWidth - window.innerWidth,
  };
}

export function auditSection(page: Page): Promise<SectionAudit> {
  return page.evaluate(measure);
}

/** axe-core on the comments section only: the theme's own markup is not ours to judge. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    type Result = { id: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> };
    const axe = (window as unknown as { axe: { run: (context: Element) => Promise<{ violations: Result[] }> } }).axe;
    const { violations } = await axe.run(document.querySelector("[data-comments]")!);
    return violations.map(
      (v) =>
        `${v.id}: ${v.nodes
          .slice(0, 3)
          .map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ""}`)
          .join(" | ")}`,
    );
  });
}

/** Each measured text below the contrast WCAG AA asks of it, described for the failure message. */
export function failingContrast(audit: SectionAudit): string[] {
  return audit.contrast
    .filter((c) => c.ratio < c.needed)
    .map((c) => `${c.role} "${c.text}" ${c.ratio}:1 < ${c.needed}:1 (${c.foreground} on ${c.background})`);
}

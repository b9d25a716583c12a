// The HTML a comment shows: the service's rendering, sanitized then highlighted; or, when the
// service stored no rendering, the plain content as escaped paragraphs.
import { highlightCodeBlocks } from "./highlight.ts";
import { escapeHtml, sanitizeCommentHtml } from "./sanitize.ts";

/** Bump when sanitizing or highlighting changes their output: stored pages are then rendered again. */
export const RENDER_VERSION = "7";

export interface RenderedBody {
  html: string;
  unknownLanguages: string[];
}

function plainTextToHtml(content: string): string {
  return content
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== "")
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\r?\n/g, "<br>")}</p>`)
    .join("");
}

export function renderCommentBody(html: string, content: string): RenderedBody {
  const sanitized = sanitizeCommentHtml(html).trim();
  // A body that sanitizes to nothing (empty, or hostile markup only) falls back to the text.
  if (sanitized === "") return { html: plainTextToHtml(content), unknownLanguages: [] };
  const highlighted = highlightCodeBlocks(sanitized);
  return { ...highlighted, html: focusableCodeBlocks(highlighted.html) };
}

/**
 * A code block scrolls sideways where its lines are longer than the column (a phone, a narrow
 * sidebar), and keyboard users can scroll only what takes focus (WCAG 2.1.1; axe's
 * scrollable-region-focusable), as Astro's own highlighted blocks do. The markup is sanitized, so
 * `<pre` only ever starts a tag here.
 */
function focusableCodeBlocks(html: string): string {
  return html.replace(/<pre(?=[\s>])/g, '<pre tabindex="0"');
}

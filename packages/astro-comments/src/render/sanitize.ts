// Comment bodies are written by strangers. They pass an allow-list before anything prints them:
// text formatting, lists, quotes, code and safe links survive; scripts, styles, frames, forms,
// embedded SVG/MathML, event handlers and non-http(s)/mailto URLs do not.
import sanitizeHtml from "sanitize-html";

/** Elements a comment body may keep. Everything else is unwrapped (its text stays) or dropped whole. */
export const allowedElements: readonly string[] = [
  "p", "br", "hr", "a", "b", "strong", "i", "em", "u", "s", "del", "ins", "mark", "small", "sub", "sup",
  "code", "pre", "kbd", "samp", "var", "blockquote", "q", "cite", "abbr", "ul", "ol", "li", "dl", "dt", "dd",
  "table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption", "span",
];

/** Attributes per element; `class` on code only as language-*. */
export const allowedAttributes: Readonly<Record<string, readonly string[]>> = {
  a: ["href", "title", "rel"],
  abbr: ["title"],
  ol: ["start", "reversed"],
  code: ["class"],
  th: ["colspan", "rowspan", "scope"],
  td: ["colspan", "rowspan"],
};

// Dropped with everything inside them: their content is code, styling or foreign markup, not text.
const droppedWithContent = [
  "script", "style", "textarea", "option", "noscript", "template", "svg", "math", "iframe", "frame",
  "frameset", "object", "embed", "applet", "title", "xmp", "noembed", "noframes", "plaintext", "head", "select",
];

const LINK_REL = "nofollow ugc noopener";
const SAFE_HREF = /^(https?:\/\/|mailto:)[^\s\u0000-\u001f]*$/i;

const options: sanitizeHtml.IOptions = {
  allowedTags: [...allowedElements],
  allowedAttributes: Object.fromEntries(Object.entries(allowedAttributes).map(([tag, attrs]) => [tag, [...attrs]])),
  allowedClasses: { code: ["language-*"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href", "src", "cite"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  nonTextTags: droppedWithContent,
  parseStyleAttributes: false,
  // Headings inside a comment would break the page's outline.
  transformTags: {
    h1: "p", h2: "p", h3: "p", h4: "p", h5: "p", h6: "p",
    // Links keep an href only when it is an absolute http(s) or mailto URL, as parsed (entities
    // decoded). Relative, fragment or whitespace-prefixed hrefs are dropped: " javascript:…" is
    // relative to a sanitizer but runs in a browser, which strips the leading space.
    a: (tagName, attribs) => {
      // A fixed attribute order keeps sanitizing idempotent.
      const { href, title } = attribs;
      const kept: Record<string, string> = {};
      if (href !== undefined && SAFE_HREF.test(href)) kept.href = href;
      if (title !== undefined) kept.title = title;
      return { tagName, attribs: { ...kept, rel: LINK_REL } };
    },
  },
  exclusiveFilter: (frame) => frame.tag === "a" && !frame.attribs.href && !frame.text.trim(),
};

/** The body with only allow-listed markup left. Idempotent: sanitizing the output again changes nothing. */
export function sanitizeCommentHtml(html: string): string {
  return sanitizeHtml(html, options);
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

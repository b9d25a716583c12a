// The sanitizer the streaming one replaced: sanitize-html with its former options, unchanged. The
// differential test checks the two agree where they should; bench/sanitizer.ts times both.
import sanitizeHtml from "sanitize-html";
import { allowedAttributes, allowedElements } from "../../src/render/sanitize.ts";

const LINK_REL = "nofollow ugc noopener";
const SAFE_HREF = /^(https?:\/\/|mailto:)[^\s\u0000-\u001f]*$/i;

const legacyOptions: sanitizeHtml.IOptions = {
  allowedTags: [...allowedElements],
  allowedAttributes: Object.fromEntries(Object.entries(allowedAttributes).map(([tag, attrs]) => [tag, [...attrs]])),
  allowedClasses: { code: ["language-*"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href", "src", "cite"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  nonTextTags: [
    "script",
    "style",
    "textarea",
    "option",
    "noscript",
    "template",
    "svg",
    "math",
    "iframe",
    "frame",
    "frameset",
    "object",
    "embed",
    "applet",
    "title",
    "xmp",
    "noembed",
    "noframes",
    "plaintext",
    "head",
    "select",
  ],
  parseStyleAttributes: false,
  transformTags: {
    h1: "p",
    h2: "p",
    h3: "p",
    h4: "p",
    h5: "p",
    h6: "p",
    a: (tagName, attribs) => {
      const { href, title } = attribs;
      const kept: Record<string, string> = {};
      if (href !== undefined && SAFE_HREF.test(href)) kept.href = href;
      if (title !== undefined) kept.title = title;
      return { tagName, attribs: { ...kept, rel: LINK_REL } };
    },
  },
  exclusiveFilter: (frame) => frame.tag === "a" && !frame.attribs.href && !frame.text.trim(),
};

export const legacySanitize = (html: string): string => sanitizeHtml(html, legacyOptions);

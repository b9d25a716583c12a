// Properties of the sanitizer over generated HTML-ish input: allow-listed markup only, well-formed
// canonical output, idempotence, and a fast path that answers exactly what parsing answers.
import { generateDataset } from "@astro-comments/mock-server";
import fc from "fast-check";
import { Parser } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { allowedElements, escapeHtml, sanitizeCommentHtml } from "../../src/render/sanitize.ts";
import { auditMarkup, disallowedMarkup } from "../helpers/html-audit.ts";

const runs = { seed: 20_240_611, numRuns: 3000 };

const tagNames = fc.constantFrom(
  ...allowedElements,
  "h1",
  "h4",
  "div",
  "span2",
  "x-foo",
  "img",
  "image",
  "body",
  "html",
  "form",
  "input",
  "button",
  "font",
  "listing",
  "script",
  "style",
  "textarea",
  "title",
  "xmp",
  "noscript",
  "plaintext",
  "svg",
  "math",
  "template",
  "iframe",
  "select",
  "option",
  "noembed",
  "noframes",
  "object",
  "embed",
  "frame",
  "head",
  "mi",
  "mtext",
  "foreignObject",
  "desc",
);
const specials = fc.constantFrom(
  "&amp;",
  "&lt;",
  "&gt;",
  "&quot;",
  "&#39;",
  "&nbsp;",
  "&#106;",
  "&#x3C;",
  "&",
  "&copy",
  "&#0;",
  "&#x110000;",
  "<",
  ">",
  '"',
  "'",
  "<!--",
  "-->",
  "<!---->",
  "<![CDATA[",
  "]]>",
  "<?x ?>",
  "<!doctype html>",
  "</",
  "/>",
  "<p>",
  "</p>",
  "</br>",
  "<p",
  "\0",
  "\r\n",
  " ",
);
const text = fc.oneof(fc.string({ maxLength: 8 }), fc.string({ unit: "binary", maxLength: 4 }), specials);
const attributeValue = fc.oneof(
  fc.constantFrom(
    "https://x.example/a?b=1&amp;c=2",
    "HTTP://X.example",
    " https://x.example/ ",
    "http://host:ha.example\\",
    "mailto:a@b.example",
    "javascript:alert(1)",
    "&#106;avascript:alert(1)",
    "//x.example/",
    "language-js extra",
    "x language-c++",
    "language-",
    "3",
    "",
  ),
  text,
);
const attribute = fc
  .tuple(
    fc.constantFrom(
      "href",
      "title",
      "rel",
      "class",
      "start",
      "reversed",
      "colspan",
      "rowspan",
      "scope",
      "onclick",
      "style",
      "src",
      "xlink:href",
    ),
    attributeValue,
    fc.constantFrom('"', "'", ""),
  )
  .map(([name, value, quote]) => (quote === "" ? ` ${name}=${value}` : ` ${name}=${quote}${value}${quote}`));
const startTag = fc
  .tuple(tagNames, fc.array(attribute, { maxLength: 3 }), fc.boolean(), fc.boolean())
  .map(
    ([name, attributes, upper, selfClosing]) =>
      `<${upper ? name.toUpperCase() : name}${attributes.join("")}${selfClosing ? "/" : ""}>`,
  );
const endTag = tagNames.map((name) => `</${name}>`);
const htmlish = fc.array(fc.oneof(startTag, endTag, text), { maxLength: 40 }).map((parts) => parts.join(""));
const anyInput = fc.oneof(htmlish, fc.string({ unit: "binary", maxLength: 60 }));

const voidElements = new Set(["br", "hr"]);

/**
 * Parses `html` and writes it back in the sanitizer's canonical form. A well-formed sanitizer output
 * comes back byte for byte: every element closed explicitly and in order, nothing the parser had to
 * imply or skip, text and values escaped.
 */
function reserialize(html: string): { html: string; irregular: string[] } {
  let out = "";
  const irregular: string[] = [];
  const parser = new Parser({
    onopentag(name, attributes, implied) {
      if (implied) irregular.push(`implied <${name}>`);
      const written = Object.entries(attributes).map(([attr, value]) =>
        attr === "reversed" ? " reversed" : ` ${attr}="${escapeHtml(value)}"`,
      );
      out += `<${name}${written.join("")}>`;
    },
    ontext(data) {
      out += data.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    },
    onclosetag(name, implied) {
      if (voidElements.has(name)) return;
      if (implied) irregular.push(`implied </${name}>`);
      out += `</${name}>`;
    },
    oncomment(data) {
      irregular.push(`comment ${data}`);
    },
    onprocessinginstruction(name) {
      irregular.push(`instruction ${name}`);
    },
  });
  parser.write(html);
  parser.end();
  return { html: out, irregular };
}

function unsafeHrefs(html: string): string[] {
  return auditMarkup(html).hrefs.filter(
    (href) => !["http:", "https:", "mailto:"].includes(URL.parse(href)?.protocol ?? ""),
  );
}

describe("sanitizer properties", () => {
  it("leaves only allow-listed markup and absolute http(s)/mailto hrefs", () => {
    fc.assert(
      fc.property(anyInput, (input) => {
        const clean = sanitizeCommentHtml(input);
        expect(disallowedMarkup(clean)).toEqual([]);
        expect(unsafeHrefs(clean)).toEqual([]);
      }),
      runs,
    );
  });

  it("writes well-formed, canonical markup", () => {
    fc.assert(
      fc.property(anyInput, (input) => {
        const clean = sanitizeCommentHtml(input);
        expect(reserialize(clean)).toEqual({ html: clean, irregular: [] });
      }),
      runs,
    );
  });

  it("is idempotent", () => {
    fc.assert(
      fc.property(anyInput, (input) => {
        const clean = sanitizeCommentHtml(input);
        expect(sanitizeCommentHtml(clean)).toBe(clean);
      }),
      runs,
    );
  });
});

describe("implied end tags", () => {
  // An unwrapped element in between hides the nesting from the parser, so only the sanitizer's own
  // table of implied end tags can keep the output from nesting what a parser would not.
  it.each(["", "<span2>"])("are written for every pair of allowed elements, with %j in between", (between) => {
    const wrong: string[] = [];
    for (const outer of allowedElements) {
      for (const inner of allowedElements) {
        const clean = sanitizeCommentHtml(
          `<${outer}>a${between}<${inner}>b</${inner}>c${between && "</span2>"}d</${outer}>e`,
        );
        const { html, irregular } = reserialize(clean);
        if (html !== clean || irregular.length > 0 || sanitizeCommentHtml(clean) !== clean)
          wrong.push(`${outer} > ${inner}: ${clean}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

// The fast path only ever sees `<p>` in lowercase. `<P>` gives htmlparser2 the same events, so the
// same body with `<P>` is the full path's answer for it.
const fullPathVariant = (body: string): string => `<P>${body.slice(3)}`;

describe("the plain-paragraph fast path", () => {
  // Without <, > and & and without the characters HTML does not allow (the sanitizer drops those).
  const plain = fc
    .string({ unit: "binary", maxLength: 80 })
    .map((value) =>
      value.replace(/[<>&\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f\ufdd0-\ufdef\ufffe\uffff]|\p{Cs}/gu, ""),
    );
  const between = fc.oneof(fc.constantFrom("", "\n", "\r\n", " \n\n"), plain);
  const paragraphs = (inner: fc.Arbitrary<string>, after: fc.Arbitrary<string>) =>
    fc
      .array(fc.tuple(inner, after), { minLength: 1, maxLength: 4 })
      .map((parts) => parts.map(([text, tail]) => `<p>${text}</p>${tail}`).join(""));

  it("answers what parsing answers, for any paragraphs of any text", () => {
    fc.assert(
      fc.property(paragraphs(fc.oneof(plain, text, fc.string({ maxLength: 20 })), fc.oneof(between, text)), (body) => {
        expect(sanitizeCommentHtml(body)).toBe(sanitizeCommentHtml(fullPathVariant(body)));
      }),
      { ...runs, numRuns: 5000 },
    );
  });

  it("returns paragraphs without <, > or & in their text unchanged", () => {
    fc.assert(
      fc.property(paragraphs(plain, between), (body) => {
        expect(sanitizeCommentHtml(body)).toBe(body);
        expect(sanitizeCommentHtml(fullPathVariant(body))).toBe(body);
      }),
      runs,
    );
  });

  it("answers what parsing answers for every paragraph body of the mock's dataset", () => {
    const bodies = generateDataset({ seed: 7, size: 1500 })
      .map((comment) => comment.html)
      .filter((html) => html.startsWith("<p>"));
    // Most of them are the fast path's case, and come back unchanged.
    expect(bodies.filter((html) => sanitizeCommentHtml(html) === html).length / bodies.length).toBeGreaterThan(0.5);
    for (const body of bodies) expect(sanitizeCommentHtml(body), body).toBe(sanitizeCommentHtml(fullPathVariant(body)));
  });
});

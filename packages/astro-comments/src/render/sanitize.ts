// Comment bodies are written by strangers. They pass an allow-list before anything prints them:
// text formatting, lists, quotes, code and safe links survive; scripts, styles, frames, forms,
// embedded SVG/MathML, event handlers and non-http(s)/mailto URLs do not.
//
// The sanitizer follows htmlparser2's event stream without building a tree and writes every tag it
// keeps itself: attributes in a fixed order, text and values escaped, every element it opens closed
// in order. Its output is therefore well-formed, and sanitizing it again changes nothing.
import { Parser, type Handler } from "htmlparser2";
import { impliedEndTags, rawTextEnd } from "./html-parsing-rules.ts";
import { safeLinkUrl } from "./safe-url.ts";

/** Elements a comment body may keep. Everything else is unwrapped (its text stays) or dropped whole. */
export const allowedElements: readonly string[] = [
  "p",
  "br",
  "hr",
  "a",
  "b",
  "strong",
  "i",
  "em",
  "u",
  "s",
  "del",
  "ins",
  "mark",
  "small",
  "sub",
  "sup",
  "code",
  "pre",
  "kbd",
  "samp",
  "var",
  "blockquote",
  "q",
  "cite",
  "abbr",
  "ul",
  "ol",
  "li",
  "dl",
  "dt",
  "dd",
  "table",
  "thead",
  "tbody",
  "tfoot",
  "tr",
  "th",
  "td",
  "caption",
  "span",
];

/** Attributes per element, written in this order; `class` on code only as one language-* token. */
export const allowedAttributes: Readonly<Record<string, readonly string[]>> = {
  a: ["href", "title", "rel"],
  abbr: ["title"],
  ol: ["start", "reversed"],
  code: ["class"],
  th: ["colspan", "rowspan", "scope"],
  td: ["colspan", "rowspan"],
};

// Dropped with everything inside them: their content is code, styling or foreign markup, not text.
const droppedWithContent: ReadonlySet<string> = new Set([
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
]);

// The tag each kept element is written as. Headings inside a comment would break the page's outline.
const writtenAs: ReadonlyMap<string, string> = new Map([
  ...allowedElements.map((tag) => [tag, tag] as const),
  ...["h1", "h2", "h3", "h4", "h5", "h6"].map((heading) => [heading, "p"] as const),
]);

const voidElements: ReadonlySet<string> = new Set(["br", "hr"]);

const LINK_REL = "nofollow ugc noopener";

// highlight.ts finds code blocks by this class, so a kept class is always a name it can match.
const LANGUAGE_CLASS = /^language-[A-Za-z0-9_+#.-]+$/;
const ASCII_WHITESPACE = /[\t\n\f\r ]+/;

const characterReferences: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
const replaceCharacter = (character: string): string => characterReferences[character] ?? character;

// What HTML makes a parse error in a document's text: NUL, the other C0 controls but tab, LF, FF
// and CR, DEL and C1 ("control-character-in-input-stream"), lone surrogates and the BMP's
// noncharacters. A browser drops or replaces them; a NUL can also end a string early in a tool that
// reads the page. None is ever meant to be seen, so none is written.
const notHtmlText = /[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f\p{Cs}\ufdd0-\ufdef\ufffe\uffff]/gu;
const hasNonHtmlText = new RegExp(notHtmlText.source, "u");

/** `text` without the characters HTML does not allow in a document (see notHtmlText). */
export function withoutControlCharacters(text: string): string {
  return text.replace(notHtmlText, "");
}

/** Escapes text for an element's content or a quoted attribute value, dropping what HTML does not allow. */
export function escapeHtml(text: string): string {
  return withoutControlCharacters(text).replace(/[&<>"']/g, replaceCharacter);
}

// Text content needs only &, < and >; leaving quotes alone keeps plain prose byte for byte.
function escapeText(text: string): string {
  // htmlparser2 hands over each character reference it decodes as a text of its own: the common
  // case in code blocks, and cheaper to look up than to scan.
  if (text.length === 1)
    return text === "&" || text === "<" || text === ">" ? replaceCharacter(text) : withoutControlCharacters(text);
  const allowed = withoutControlCharacters(text);
  return /[&<>]/.test(allowed) ? allowed.replace(/[&<>]/g, replaceCharacter) : allowed;
}

function languageClass(value: string): string | undefined {
  return value.split(ASCII_WHITESPACE).find((token) => LANGUAGE_CLASS.test(token));
}

function linkAttributes(href: string | undefined, title: string | undefined): string {
  const target = href === undefined ? "" : ` href="${escapeHtml(href)}"`;
  const label = title === undefined || title === "" ? "" : ` title="${escapeHtml(title)}"`;
  return `${target}${label} rel="${LINK_REL}"`;
}

function elementAttributes(tag: string, attributes: Record<string, string>): string {
  let written = "";
  for (const name of allowedAttributes[tag] ?? []) {
    const value = attributes[name];
    if (value === undefined) continue;
    if (name === "reversed") {
      // A boolean attribute: being there is its whole meaning.
      written += " reversed";
    } else if (name === "class") {
      // LANGUAGE_CLASS admits no character that needs escaping.
      const language = languageClass(value);
      if (language !== undefined) written += ` class="${language}"`;
    } else if (value !== "") {
      // An empty title, span or start says nothing.
      written += ` ${name}="${escapeHtml(value)}"`;
    }
  }
  return written;
}

/** An element whose start tag has been written. */
interface WrittenElement {
  readonly tag: string;
  /** Output length before the start tag: a link that never gets text is cut back to it. */
  readonly start: number;
  closed: boolean;
}

// What an element htmlparser2 has open stands for in the output, besides a written element.
/** Nothing of its own: a disallowed element whose content stays, a void one, or one a browser reads as <noscript> text. */
const UNWRAPPED = 0;
/** Left out with everything inside it. */
const DROPPED = 1;
type Frame = WrittenElement | typeof UNWRAPPED | typeof DROPPED;

class StreamingSanitizer implements Partial<Handler> {
  private source = "";
  private out = "";
  /** One frame per element htmlparser2 has open, innermost last. */
  private readonly frames: Frame[] = [];
  /** Written elements not closed yet, innermost last. */
  private readonly open: WrittenElement[] = [];
  /** Open links with no href that have had no text yet: they are dropped if none comes. */
  private readonly linksAwaitingText: WrittenElement[] = [];
  /** Dropped elements htmlparser2 has open; content is written only when there are none. */
  private dropDepth = 0;
  /** Source offset up to which a browser still reads a dropped `<noscript>` as raw text. */
  private rawTextUntil = 0;
  /** A start tag whose name htmlparser2 has read but whose `>` never came (a truncated input). */
  private unfinishedTag: string | undefined;
  private readonly parser = new Parser(this, {
    decodeEntities: true,
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
  });

  sanitize(html: string): string {
    this.source = html;
    this.parser.parseComplete(html);
    while (this.open.length > 0) this.closeInnermost();
    const out = this.out;
    this.source = "";
    this.out = "";
    return out;
  }

  onreset(): void {
    this.out = "";
    this.frames.length = 0;
    this.open.length = 0;
    this.linksAwaitingText.length = 0;
    this.dropDepth = 0;
    this.rawTextUntil = 0;
    this.unfinishedTag = undefined;
  }

  onopentagname(name: string): void {
    this.unfinishedTag = name;
  }

  onopentag(name: string, attributes: Record<string, string>): void {
    this.unfinishedTag = undefined;
    if (this.dropDepth > 0 || droppedWithContent.has(name)) {
      if (this.dropDepth === 0 && name === "noscript") {
        // htmlparser2 parses <noscript> content as markup, so an end tag for an ancestor can close
        // it before a browser would; what the browser still reads as its text must stay out. An
        // end found for an earlier <noscript> that still lies ahead is the first one after this one
        // too, which keeps a body full of them from being searched once per <noscript>.
        const contentStart = this.parser.endIndex + 1;
        if (this.rawTextUntil < contentStart) this.rawTextUntil = rawTextEnd(this.source, name, contentStart);
      }
      this.dropDepth++;
      this.frames.push(DROPPED);
      return;
    }
    const tag = writtenAs.get(name);
    this.frames.push(tag === undefined || this.inBrowserRawText() ? UNWRAPPED : this.write(tag, attributes));
  }

  ontext(text: string): void {
    if (this.dropDepth > 0 || this.inBrowserRawText()) return;
    this.out += escapeText(text);
    if (this.linksAwaitingText.length > 0 && text.trim() !== "") this.linksAwaitingText.length = 0;
  }

  onclosetag(name: string): void {
    // At the end of a truncated input htmlparser2 closes the start tag it never finished.
    if (name === this.unfinishedTag) {
      this.unfinishedTag = undefined;
      return;
    }
    const frame = this.frames.pop();
    if (frame === DROPPED) this.dropDepth--;
    // htmlparser2 closes elements innermost first, so an element still open here is the innermost one.
    else if (typeof frame === "object" && !frame.closed) this.closeInnermost();
  }

  private inBrowserRawText(): boolean {
    return this.parser.startIndex < this.rawTextUntil;
  }

  private write(tag: string, attributes: Record<string, string>): Frame {
    const closes = impliedEndTags.get(tag);
    if (closes !== undefined) {
      for (
        let innermost = this.open.at(-1);
        innermost !== undefined && closes.has(innermost.tag);
        innermost = this.open.at(-1)
      ) {
        this.closeInnermost();
      }
    }
    if (voidElements.has(tag)) {
      this.out += `<${tag}>`;
      return UNWRAPPED;
    }
    const element: WrittenElement = { tag, start: this.out.length, closed: false };
    if (tag === "a") {
      const href = attributes.href === undefined ? undefined : safeLinkUrl(attributes.href);
      this.out += `<a${linkAttributes(href, attributes.title)}>`;
      if (href === undefined) this.linksAwaitingText.push(element);
    } else {
      this.out += `<${tag}${elementAttributes(tag, attributes)}>`;
    }
    this.open.push(element);
    return element;
  }

  private closeInnermost(): void {
    const element = this.open.pop();
    if (element === undefined) return;
    element.closed = true;
    if (this.linksAwaitingText.at(-1) === element) {
      // A link with neither a target nor text shows nothing: drop it with whatever markup it holds.
      this.linksAwaitingText.pop();
      this.out = this.out.slice(0, element.start);
    } else {
      this.out += `</${element.tag}>`;
    }
  }
}

/**
 * True when `html` is paragraphs of plain text: `<p>`, text, `</p>`, repeated, with text between
 * them, and no other `<`, `>` or `&` anywhere, nor a character HTML does not allow. The sanitizer would write such a body back unchanged
 * (it keeps `<p>` and escapes only those characters in text), so it needs no parsing. Most real
 * bodies are one or a few such paragraphs.
 */
function isPlainParagraphs(html: string): boolean {
  if (!html.startsWith("<p>") || html.includes("&") || hasNonHtmlText.test(html)) return false;
  let tags = 0;
  for (let at = html.indexOf("<"); at !== -1; at = html.indexOf("<", at + 1)) {
    if (!html.startsWith(tags % 2 === 0 ? "<p>" : "</p>", at)) return false;
    tags++;
  }
  let tagEnds = 0;
  for (let at = html.indexOf(">"); at !== -1; at = html.indexOf(">", at + 1)) tagEnds++;
  // Every <p> closed, and every > one of the tags' own.
  return tags % 2 === 0 && tagEnds === tags;
}

// One parser serves every call: sanitizing is synchronous, and the parser resets itself per body.
const sanitizer = new StreamingSanitizer();

/** The body with only allow-listed markup left. Idempotent: sanitizing the output again changes nothing. */
export function sanitizeCommentHtml(html: string): string {
  return isPlainParagraphs(html) ? html : sanitizer.sanitize(html);
}

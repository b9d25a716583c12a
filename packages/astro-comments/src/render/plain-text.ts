// A sanitized comment body as plain text, for places that take no markup (structured data).
// Parsed with htmlparser2 like the sanitizer, never with regular expressions over HTML.
import { Parser } from "htmlparser2";

// Elements that end a line, and those that end a paragraph (a blank line).
const lineBreaks = new Set(["br", "li", "tr"]);
const paragraphBreaks = new Set(["p", "pre", "blockquote", "ul", "ol", "table"]);

/** The text of sanitized HTML: entities decoded, paragraphs separated by a blank line, code verbatim. */
export function htmlToText(html: string): string {
  let text = "";
  let pending = 0; // newlines owed before the next text: 0, 1 or 2
  let preDepth = 0;
  const owe = (name: string) => {
    if (paragraphBreaks.has(name)) pending = 2;
    else if (lineBreaks.has(name)) pending = Math.max(pending, 1);
  };
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === "pre") preDepth++;
        owe(name);
      },
      onclosetag(name) {
        if (name === "pre") preDepth--;
        owe(name);
      },
      ontext(chunk) {
        // Outside <pre>, whitespace (including the newlines between tags) is one space, as a browser shows it.
        const piece = preDepth > 0 ? chunk : chunk.replace(/\s+/g, " ");
        if (piece === "" || (preDepth === 0 && piece === " " && (pending > 0 || text === "" || text.endsWith(" "))))
          return;
        if (text !== "" && pending > 0) text = text.trimEnd() + "\n".repeat(pending);
        text += pending > 0 || text === "" ? (preDepth > 0 ? piece : piece.trimStart()) : piece;
        pending = 0;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return text.trim();
}

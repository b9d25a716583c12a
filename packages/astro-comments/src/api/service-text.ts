// Text a service sent (a body, a header such as Location, a parser message that quotes a body, a
// comment's author) reaches a log line, an error or the check's line only through these. Whoever
// controls a response must not write into a developer's terminal or a CI log: an ESC starts a
// terminal command (`ESC ]0;…BEL` sets the window title), a CR or backspace overwrites what came
// before, a newline pushes the URL and the advice off the first line, and the bidi controls
// reorder what is shown. No Astro import: the mock's record/verify bundle this too.

// C0, DEL and C1 (\p{Cc}), lone surrogates (\p{Cs}), the Arabic letter mark, LRM/RLM, the line and
// paragraph separators, the bidi embeddings and overrides (U+202A–202E) and isolates (U+2066–2069),
// and a BOM. The word joiner U+2060 is left: astroSafeString puts it into our own messages.
const unsafe = /[\p{Cc}\p{Cs}\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/gu;
const named: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeUnit(char: string): string {
  const code = char.charCodeAt(0);
  return (
    named[char] ??
    (code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`)
  );
}

/**
 * The text with every control character written as an escape (`\x1b`, `\n`, `\u202e`), so it
 * stays on one line and shows as what it is. For whole messages: backslashes and quotes are kept.
 */
export function escapeControlCharacters(text: string): string {
  return text.replace(unsafe, escapeUnit);
}

/** Characters of service text shown in a message by default: enough to recognise a page. */
const EXCERPT_CHARACTERS = 60;

/**
 * Service text as a message quotes it: in double quotes, control characters escaped, backslashes
 * and quotes escaped (so the excerpt's end is unambiguous), cut to `maxCharacters` code points
 * with "…" after the closing quote when it was longer.
 * @example quoteServiceText('<br />\n<b>Deprecated</b>: …') // "<br />\\n<b>Deprecated</b>: …"
 */
export function quoteServiceText(text: string, maxCharacters = EXCERPT_CHARACTERS): string {
  // Sliced before splitting into code points: a 60 MiB body costs no more than a short one.
  const points = Array.from(text.slice(0, maxCharacters * 2 + 2));
  const cut = points.length > maxCharacters;
  const excerpt = (cut ? points.slice(0, maxCharacters) : points).join("");
  return `"${escapeControlCharacters(excerpt.replace(/[\\"]/g, "\\$&"))}"${cut ? "…" : ""}`;
}

// Service text in a message: one line, inert in a terminal, short, and recognisable.
import { describe, expect, it } from "vitest";
import { escapeControlCharacters, quoteServiceText } from "../../src/api/service-text.ts";

// Every character a terminal or a log viewer acts on rather than shows.
const controls = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/;

describe("quoteServiceText", () => {
  it("quotes a PHP notice before JSON on one line, escaped", () => {
    expect(quoteServiceText('<br />\n<b>Deprecated</b>: x in <b>/var/www</b> {"data":[]}', 30)).toBe(
      '"<br />\\n<b>Deprecated</b>: x in"…',
    );
  });

  it("writes terminal commands, NUL, backspace and bidi overrides as escapes", () => {
    const hostile = "a\u0000b\bc\u001b]0;PWNED\u0007d\u009be\u202ef\u2028g\u2066h\ud800i\ufeff\r\n\t\u007f";
    const quoted = quoteServiceText(hostile, 100);
    expect(quoted).toBe(
      '"a\\x00b\\x08c\\x1b]0;PWNED\\x07d\\x9be\\u202ef\\u2028g\\u2066h\\ud800i\\ufeff\\r\\n\\t\\x7f"',
    );
    expect(quoted).not.toMatch(controls);
  });

  it("escapes quotes and backslashes so the excerpt's end is unambiguous, and keeps other text as it is", () => {
    expect(quoteServiceText('say "hi" \\ 👋🏽 Zoë 日本', 100)).toBe('"say \\"hi\\" \\\\ 👋🏽 Zoë 日本"');
  });

  it("cuts by code points, never inside a surrogate pair, and marks the cut", () => {
    expect(quoteServiceText("😀".repeat(10), 3)).toBe('"😀😀😀"…');
    expect(quoteServiceText("x".repeat(5_000_000))).toBe(`"${"x".repeat(60)}"…`);
  });
});

describe("escapeControlCharacters", () => {
  it("keeps backslashes, quotes and the word joiner our own messages use", () => {
    expect(escapeControlCharacters('C:\\site "x" win\u2060dow\u200d👨‍👩‍👧')).toBe(
      'C:\\site "x" win\u2060dow\u200d👨‍👩‍👧',
    );
  });

  it("leaves no control character in any string", () => {
    let all = "";
    for (let code = 0; code < 0x3000; code++) all += String.fromCharCode(code);
    expect(escapeControlCharacters(all)).not.toMatch(controls);
    expect(escapeControlCharacters(all)).not.toContain("\n");
  });
});

// The two encoders a Laravel app answers with: json_encode with flags 0 (success, 401, 422)
// and JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES (HTTP exceptions: 403, 404, 405, 429, 5xx).

const escapeUnit = (c: string) => (c === "/" ? "\\/" : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** Compact, `/` written as `\/`, every non-ASCII UTF-16 unit as `\uXXXX`: PHP's json_encode($v, 0). */
export function phpJsonEncode(value: unknown): string {
  return JSON.stringify(value).replace(/[/\u007f-\uffff]/g, escapeUnit);
}

// List items never change once indexed, so each is encoded to bytes once. The output is pure
// ASCII (everything else is \u-escaped), so pieces concatenate as bytes with no UTF-8 pass.
// This is most of the mock's throughput (measured in bench/mock-throughput.ts).
const encodedItems = new WeakMap<object, Buffer>();
const ascii = (text: string) => Buffer.from(text, "latin1");
const COMMA = ascii(",");

function encodeItem(item: object): Buffer {
  let encoded = encodedItems.get(item);
  if (encoded === undefined) {
    encoded = ascii(phpJsonEncode(item));
    encodedItems.set(item, encoded);
  }
  return encoded;
}

/** The same bytes as phpJsonEncode(page), reusing the encoding of each item of `data`. */
export function phpJsonEncodePage(page: { data: readonly object[] }): Buffer {
  const chunks: Buffer[] = [];
  let first = true;
  for (const [key, value] of Object.entries(page)) {
    chunks.push(ascii(`${first ? "{" : ","}${JSON.stringify(key)}:`));
    first = false;
    if (key !== "data") {
      chunks.push(ascii(phpJsonEncode(value)));
      continue;
    }
    chunks.push(ascii("["));
    page.data.forEach((item, index) => {
      if (index > 0) chunks.push(COMMA);
      chunks.push(encodeItem(item));
    });
    chunks.push(ascii("]"));
  }
  chunks.push(ascii("}"));
  return Buffer.concat(chunks);
}

/**
 * Before Laravel 9.2 the paginator keeps per_page as the app passed it, so an app that passes the
 * query value through sends a JSON string. Applied after Prism has validated the page: the contract
 * says integer, and a client must still cope. The value in effect is written as it was given
 * ("+5" stays "+5"); a default or capped one as its decimal string ("50").
 */
export function withPerPageAsGiven(page: unknown, given: unknown): unknown {
  const meta = (page as { meta?: { per_page?: unknown } } | null)?.meta;
  if (typeof meta?.per_page !== "number") return page;
  const text = typeof given === "string" && Number(given) === meta.per_page ? given : String(meta.per_page);
  return { ...(page as object), meta: { ...meta, per_page: text } };
}

/** Four-space indent, `"key": value`, no trailing newline: PHP's pretty print (ASCII bodies only). */
export function phpJsonPretty(value: unknown): string {
  return JSON.stringify(value, null, 4);
}

// Every failure says, in its first line, what failed, where (URL without secrets, status) and
// what to do, and carries a hint of our own: Astro invents a hint for errors that have none, and
// its guesses (browser APIs, file extensions) send users the wrong way.
import { AstroError } from "astro/errors";

import { astroSafeString } from "./api/api-error.ts";
import { brandedInstance, hasBrand } from "./api/brand.ts";
import { escapeControlCharacters } from "./api/service-text.ts";
import type { ErrorData } from "./errors-data.ts";

export { CommentsApiError, type CommentsApiFailure } from "./api/api-error.ts";

const configErrorBrand = Symbol.for("astro-comments.CommentsConfigError");

/** Bad or missing options or setup: raised before any request. `instanceof` holds across the package's copies. */
export class CommentsConfigError extends AstroError {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, configErrorBrand);
  }

  constructor(message: string, hint: string) {
    // An option's value or a file system's words may carry control characters; they stay inert.
    // Line by line: a report (the orphan paths) is a list, one item a line.
    super(message.split("\n").map(escapeControlCharacters).join("\n"), hint);
    brandedInstance(this, configErrorBrand);
    this.name = "CommentsConfigError";
  }

  override toString(): string {
    return astroSafeString(this);
  }
}

type MessageArgs<Entry extends ErrorData> = Entry["message"] extends (...params: infer P) => string ? P : [];

/** The CommentsConfigError of a catalogue entry (errors-data.ts). */
export function configError<Entry extends ErrorData & { hint: string }>(
  entry: Entry,
  ...params: MessageArgs<Entry>
): CommentsConfigError {
  const message =
    typeof entry.message === "string" ? entry.message : (entry.message as (...args: unknown[]) => string)(...params);
  return new CommentsConfigError(message, entry.hint);
}

/**
 * The error as Astro should print it for an expected failure: the message alone. Astro prints a
 * stack trace whenever `stack` is set and a "Caused by" block for `cause`; for an API that is down
 * those are noise. The full trace is still logged at debug level (`--verbose`).
 */
export function withoutTrace<T extends Error>(error: T, debug: (message: string) => void): T {
  if (error.stack) debug(error.stack);
  error.stack = "";
  delete (error as { cause?: unknown }).cause;
  return error;
}

// The error every failed request or crawl ends in. No Astro import, so the client (everything
// under api/) also runs in plain Node bins and bundles (the mock's record/verify, the freshness
// check). Astro still formats it as one of its own: its error printer recognises AstroError by
// the `type` field, not the class, and then prints our `hint` instead of inventing one.
import { apiFailureHints, type ApiErrorData, type CommentsApiFailure } from "../errors-data.ts";
import { brandedInstance, hasBrand } from "./brand.ts";
import { escapeControlCharacters } from "./service-text.ts";

export type { CommentsApiFailure };

/**
 * `String(error)` for our errors. Astro's error printer replaces any error's hint with one about
 * browser APIs when `String(error)` contains "window" or "document", and our messages quote
 * domains and URLs (a site on windowsforum.example, a path under /documents/). A word joiner
 * (U+2060, invisible) inside those two words keeps the text readable and the heuristic quiet; the
 * message itself is left exactly as it is.
 */
export function astroSafeString(error: Error): string {
  return `${error.name}: ${error.message}`.replace(
    /(win)(dow)|(docu)(ment)/gi,
    (_, a: string | undefined, b: string | undefined, c: string | undefined, d: string | undefined) =>
      `${a ?? c}\u2060${b ?? d}`,
  );
}

const apiErrorBrand = Symbol.for("astro-comments.CommentsApiError");

/**
 * A request to the comments API, or a whole crawl, that failed for good (after any retries).
 * `instanceof` holds across the package's copies in one process (see brand.ts).
 */
export class CommentsApiError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, apiErrorBrand);
  }

  /** What Astro's error printer looks for (AstroError.is). */
  readonly type = "AstroError";
  readonly url: string;
  readonly status: number | undefined;
  readonly failure: CommentsApiFailure;
  readonly attempts: number;
  /** What to do about it (also the last sentence of the message). */
  readonly action: string;
  /** Printed by Astro under the message. */
  hint: string;

  constructor(details: {
    failure: CommentsApiFailure;
    url: string;
    status?: number;
    message: string;
    action: string;
    attempts?: number;
    hint?: string;
  }) {
    const where = details.status === undefined ? details.url : `${details.url}, HTTP ${details.status}`;
    // Service text is quoted where it is put in; escaping the whole line as well keeps anything
    // that slipped through (a network library's words) on one line and inert in a terminal.
    super(escapeControlCharacters(`astro-comments: ${details.message} (${where}). ${details.action}`));
    brandedInstance(this, apiErrorBrand);
    this.name = "CommentsApiError";
    this.url = details.url;
    this.status = details.status;
    this.failure = details.failure;
    this.attempts = details.attempts ?? 1;
    this.action = escapeControlCharacters(details.action);
    this.hint = details.hint ?? apiFailureHints[details.failure];
  }

  override toString(): string {
    return astroSafeString(this);
  }
}

type ParamsOf<Wording> = Wording extends (params: infer P) => string ? P : unknown;
/** What an entry's message and action are worded from: nothing when both are plain strings. */
type WordingArgs<Entry extends ApiErrorData> = unknown extends ParamsOf<Entry["message"]> & ParamsOf<Entry["action"]>
  ? []
  : [ParamsOf<Entry["message"]> & ParamsOf<Entry["action"]>];
/** Where a request failed (its URL, the status if any), and after how many attempts. */
export type ApiErrorPlace = Pick<ConstructorParameters<typeof CommentsApiError>[0], "url" | "status" | "attempts">;

function wordEntry(
  entry: ApiErrorData,
  params: unknown,
): { failure: CommentsApiFailure; message: string; action: string } {
  const word = (wording: string | ((params: never) => string)) =>
    typeof wording === "string" ? wording : wording(params as never);
  return { failure: entry.failure, message: word(entry.message), action: word(entry.action) };
}

/** A catalogue entry's (errors-data.ts) failure kind, message and action, worded. */
export function worded<Entry extends ApiErrorData>(
  entry: Entry,
  ...params: WordingArgs<Entry>
): { failure: CommentsApiFailure; message: string; action: string } {
  return wordEntry(entry, params[0]);
}

/** The CommentsApiError of a catalogue entry (errors-data.ts), failed at `place`. */
export function apiError<Entry extends ApiErrorData>(
  entry: Entry,
  place: ApiErrorPlace,
  ...params: WordingArgs<Entry>
): CommentsApiError {
  return new CommentsApiError({ ...place, ...wordEntry(entry, params[0]) });
}

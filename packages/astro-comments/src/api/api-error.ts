// The error every failed request or crawl ends in. No Astro import, so the client (everything
// under api/) also runs in plain Node bins and bundles (the mock's record/verify, the freshness
// check). Astro still formats it as one of its own: its error printer recognises AstroError by
// the `type` field, not the class, and then prints our `hint` instead of inventing one.
import { brandedInstance, hasBrand } from "./brand.ts";
import { escapeControlCharacters } from "./service-text.ts";

export type CommentsApiFailure =
  | "unauthorized"
  | "forbidden"
  | "invalid-request"
  | "not-found"
  | "rate-limited"
  | "server-error"
  | "redirected"
  | "network"
  | "timeout"
  | "too-large"
  | "malformed"
  | "contract"
  | "drift";

/**
 * `String(error)` for our errors. Astro's error printer replaces any error's hint with one about
 * browser APIs when `String(error)` contains "window" or "document", and our messages quote
 * domains and URLs (a site on windowsforum.example, a path under /documents/). A word joiner
 * (U+2060, invisible) inside those two words keeps the text readable and the heuristic quiet; the
 * message itself is left exactly as it is.
 */
export function astroSafeString(error: Error): string {
  return `${error.name}: ${error.message}`.replace(/(win)(dow)|(docu)(ment)/gi, (_, a: string | undefined, b: string | undefined, c: string | undefined, d: string | undefined) => `${a ?? c}\u2060${b ?? d}`);
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

  constructor(details: { failure: CommentsApiFailure; url: string; status?: number; message: string; action: string; attempts?: number; hint?: string }) {
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
    this.hint = details.hint ?? hints[details.failure];
  }

  override toString(): string {
    return astroSafeString(this);
  }
}

// Our own hint for each failure, so Astro never adds a generic one of its own.
const hints: Record<CommentsApiFailure, string> = {
  unauthorized: "The token is read from COMMENTS_API_TOKEN or the apiToken option; it is sent only in the Authorization header and never printed.",
  forbidden: "The domain is read from COMMENTS_DOMAIN or the domain option and must match the account's site exactly.",
  "invalid-request": "The service validated the request and refused it; the message quotes what it said.",
  redirected: "The API token travels with every request, so a redirect is never followed: the client only talks to the address you configured.",
  "not-found": "The endpoint is COMMENTS_API_URL (or apiUrl) followed by /api/comments.",
  "rate-limited": "Waits for the service's rate limit count against the rateLimitWait option (default 10 minutes), not against giveUpAfter.",
  "server-error": "With onError: \"last-good\" (the default), a build keeps the comments of its last complete fetch.",
  network: "With onError: \"last-good\" (the default), a build keeps the comments of its last complete fetch.",
  timeout: "The timeout option bounds one attempt; giveUpAfter bounds all attempts of one request.",
  "too-large": "maxResponseBytes guards memory; perPage sets how many comments one response holds.",
  malformed: "Nothing was rendered from this response; the last good comments are kept where possible.",
  contract: "The contract is the JSON Schema in @astro-comments/schema; fields it does not know are tolerated, changed ones are not.",
  drift: "The crawl starts over when the total or the paging changes under it; it gives up after three crawls.",
};

// Every failure says, in its first line, what failed, where (URL without secrets, status) and
// what to do.
import { AstroError } from "astro/errors";

/** Bad or missing options or setup: raised before any request. */
export class CommentsConfigError extends AstroError {
  constructor(message: string, hint?: string) {
    super(message, hint);
    this.name = "CommentsConfigError";
  }
}

export type CommentsApiFailure =
  | "unauthorized"
  | "forbidden"
  | "invalid-request"
  | "not-found"
  | "rate-limited"
  | "server-error"
  | "network"
  | "timeout"
  | "too-large"
  | "malformed"
  | "contract"
  | "drift";

/** A request to the comments API that failed for good (after any retries). */
export class CommentsApiError extends AstroError {
  readonly url: string;
  readonly status: number | undefined;
  readonly failure: CommentsApiFailure;
  readonly attempts: number;
  /** What to do about it (also the last sentence of the message). */
  readonly action: string;

  constructor(details: { failure: CommentsApiFailure; url: string; status?: number; message: string; action: string; attempts?: number }) {
    const where = details.status === undefined ? details.url : `${details.url}, HTTP ${details.status}`;
    super(`astro-comments: ${details.message} (${where}). ${details.action}`);
    this.name = "CommentsApiError";
    this.url = details.url;
    this.status = details.status;
    this.failure = details.failure;
    this.attempts = details.attempts ?? 1;
    this.action = details.action;
  }
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

// Every failure says what failed, where (URL without secrets, status), and what to do.
import { AstroError } from "astro/errors";

/** Bad or missing options: raised while Astro loads the config, before any request. */
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

  constructor(details: { failure: CommentsApiFailure; url: string; status?: number; message: string; hint: string; attempts?: number; cause?: unknown }) {
    const where = details.status === undefined ? details.url : `${details.url} (HTTP ${details.status})`;
    super(`astro-comments: ${details.message}: ${where}`, details.hint);
    this.name = "CommentsApiError";
    this.url = details.url;
    this.status = details.status;
    this.failure = details.failure;
    this.attempts = details.attempts ?? 1;
    if (details.cause !== undefined) this.cause = details.cause;
  }
}

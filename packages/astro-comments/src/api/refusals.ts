// What a refusal or a failed attempt says, read into the catalogue entry that words it
// (errors-data.ts), so the client (http-client.ts) reads as its loop: send, classify, retry or
// throw. The service's own words (a Location, a validation message, a content type) are redacted
// by `redact` before they are quoted, so no excerpt ends inside the token; the client redacts every
// message once more on its way out, whatever put the token in it.
import type { ValidationError } from "./generated/api-types.ts";
import {
  DomainForbidden,
  EndpointNotFound,
  PerPageRejected,
  RateLimitWaitExceeded,
  Redirected,
  RequestRefused,
  runtimeLimits,
  type RuntimeLimit,
  seconds,
  TokenRejected,
  type Audience,
} from "../errors-data.ts";
import { apiError, CommentsApiError, worded, type ApiErrorPlace } from "./api-error.ts";
import { brandedInstance, hasBrand } from "./brand.ts";
import { describeLimit, type RateLimitBudgetExceeded } from "./rate-limit-gate.ts";
import { escapeControlCharacters, quoteServiceText } from "./service-text.ts";
import { WireUnavailable } from "./transport.ts";

const perPageRefusedBrand = Symbol.for("astro-comments.PerPageRefused");

/** A 422 for per_page: the largest value the service names ("may not be greater than 100"), if it names one. */
export class PerPageRefused extends CommentsApiError {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, perPageRefusedBrand);
  }
  readonly limit: number | undefined;
  constructor(details: ConstructorParameters<typeof CommentsApiError>[0], limit: number | undefined) {
    super(details);
    brandedInstance(this, perPageRefusedBrand);
    this.limit = limit;
  }
}

/** What went wrong on the wire, in words: the phase it failed in matters more than undici's code. */
export function describeAttemptFailure(
  error: unknown,
  phase: "headers" | "body",
  timedOutAfterMs: number | undefined,
  bytes: number,
): { reason: string; timeout: boolean } {
  if (timedOutAfterMs !== undefined) {
    return phase === "headers"
      ? { reason: `no response headers within ${seconds(timedOutAfterMs)}`, timeout: true }
      : {
          reason: `the response body was still arriving after ${seconds(timedOutAfterMs)} (${bytes} bytes received; the API is stalled or trickling)`,
          timeout: true,
        };
  }
  const err = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.cause?.code ?? err.code;
  const detail = err.cause?.message ?? err.message ?? "";
  // undici's words can carry the bytes it choked on (a header value, a status line).
  // Without a closing full stop ("Network connection lost." in workerd): the reason goes mid-sentence.
  const text = escapeControlCharacters(code !== undefined && !detail.includes(code) ? `${code}: ${detail}` : detail)
    .slice(0, 200)
    .replace(/\.$/, "");
  const where =
    phase === "headers" ? "before the response" : `in the middle of the response body (${bytes} bytes received)`;
  return { reason: `the connection failed ${where}: ${text || String(error)}`, timeout: false };
}

/**
 * What the runtime lacks when an attempt failed before anything was sent, or undefined for a
 * failure on the wire. undici on workerd fails each connection with "WebAssembly.Module(): Wasm code
 * generation disallowed by embedder"; a network error would send the operator to check the URL.
 */
export function runtimeLimit(error: unknown): RuntimeLimit | undefined {
  if (error instanceof WireUnavailable) return error.limit;
  const err = error as { message?: unknown; cause?: { message?: unknown } } | null;
  const words = `${String(err?.message ?? "")} ${String(err?.cause?.message ?? "")}`;
  return /WebAssembly|Wasm code generation/i.test(words) ? runtimeLimits.noWasm : undefined;
}

/**
 * JSON.parse's reason without its own excerpt of the body: V8 quotes the body raw, newlines and
 * all ("Unexpected token '<', "<br />\n<b>"... is not valid JSON"), and the message quotes the start
 * of the body itself, safely.
 */
export function parserReason(error: Error): string {
  return escapeControlCharacters(error.message.replace(/, "[\s\S]*$/, "")).slice(0, 120);
}

/**
 * A redirect's target as a message may show it: resolved against the request, without user and
 * password, quoted. Undefined without a Location header.
 */
function redirectTarget(
  location: string | undefined,
  url: string,
): { shown: string; apiUrl: string | undefined } | undefined {
  if (location === undefined || location.trim() === "") return undefined;
  let target: URL;
  try {
    target = new URL(location.trim(), url);
  } catch {
    return { shown: quoteServiceText(location), apiUrl: undefined };
  }
  target.username = "";
  target.password = "";
  const path = target.pathname.replace(/\/+$/, "");
  // The endpoint is apiUrl followed by /api/comments: the base to configure is what precedes it.
  const base = path.endsWith("/api/comments")
    ? `${target.origin}${path.slice(0, -"/api/comments".length)}`
    : target.origin;
  const safeBase =
    (target.protocol === "https:" || target.protocol === "http:") && escapeControlCharacters(base) === base
      ? base
      : undefined;
  return { shown: quoteServiceText(target.href, 120), apiUrl: safeBase };
}

/** The error for a redirect or a 4xx other than 429, from its status, body and Location header. */
export function refusal(
  place: ApiErrorPlace & { status: number },
  body: unknown,
  location: string | undefined,
  domain: string,
  perPage: number,
  redact: (text: string) => string,
): CommentsApiError {
  const { status } = place;
  if (status >= 300 && status < 400) {
    // Not followed: the token travels with the request, and a redirect may point anywhere.
    const target = redirectTarget(location === undefined ? undefined : redact(location), place.url);
    return apiError(Redirected, place, { target: target?.shown, apiUrl: target?.apiUrl });
  }
  switch (status) {
    case 401:
      return apiError(TokenRejected, place);
    case 403:
      return apiError(DomainForbidden, place, { domain });
    case 404:
      return apiError(EndpointNotFound, place);
    default: {
      const errors = (body as Partial<ValidationError> | undefined)?.errors ?? {};
      const perPageMessage = errors.per_page?.join(" ");
      if (perPageMessage !== undefined) {
        // Laravel words its max rule "may not be greater than 100" (8.x) or "must not be greater than 100" (9+).
        const limit = /greater than (\d+)/.exec(perPageMessage)?.[1];
        const details = {
          ...place,
          ...worded(PerPageRejected, { perPage, said: quoteServiceText(redact(perPageMessage), 120), limit }),
        };
        return new PerPageRefused(details, limit === undefined ? undefined : Number(limit));
      }
      const said = quoteServiceText(
        redact(
          Object.entries(errors)
            .map(([field, messages]) => `${field}: ${(messages ?? []).join(" ")}`)
            .join("; "),
        ),
        160,
      );
      return apiError(RequestRefused, place, { said });
    }
  }
}

/** The error when the rate limit asks for a longer pause than the crawl's rateLimitWait has left. */
export function rateLimitRefusal(
  exceeded: RateLimitBudgetExceeded,
  place: ApiErrorPlace,
  audience: Audience,
  need: string | undefined,
): CommentsApiError {
  const { pause, budget } = exceeded;
  return apiError(RateLimitWaitExceeded, place, {
    limit: describeLimit(pause.limit, pause.periodMs),
    waitMs: pause.waitMs,
    retryAfter: pause.retryAfter,
    leftMs: Math.max(0, budget.limitMs - budget.waitedMs),
    budgetMs: budget.limitMs,
    need,
    audience,
    neededMs: budget.waitedMs + pause.waitMs,
  });
}

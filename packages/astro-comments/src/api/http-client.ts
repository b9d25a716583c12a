// One page of the comments list over HTTP (undici): bearer auth, a deadline per attempt and per
// request, retries with backoff, the crawl-wide rate-limit gate, fail-fast on 4xx, size limit,
// content-type, JSON and schema checks. Every error names the URL and status; the token never
// leaves the Authorization header.
import { setTimeout as delay } from "node:timers/promises";
import type { CommentListResponse, ValidationError } from "./generated/api-types.ts";
import { createContractValidator, describeSchemaErrors } from "./generated/list-response-contract.ts";
import { Agent, request } from "undici";
import { CommentsApiError, type CommentsApiFailure } from "./api-error.ts";
import { brandedInstance, hasBrand } from "./brand.ts";
import { DEFAULT_RATE_LIMIT_WAIT_MS, describeLimit, RateLimitBudgetExceeded, RateLimitGate, readRateLimitHeaders, type WaitBudget } from "./rate-limit-gate.ts";
import { backoffDelay, classifyStatus, defaultRetryPolicy, parseRetryAfter, type RetryPolicy } from "./retry-policy.ts";
import { escapeControlCharacters, quoteServiceText } from "./service-text.ts";

export interface CommentsClientOptions {
  /** The list endpoint, e.g. https://go.jamcomments.com/api/comments. */
  endpoint: URL;
  token: string;
  domain: string;
  /** What one attempt may take, from sending the request to the last byte of the body, in ms. */
  timeoutMs: number;
  /** Open connections at most. */
  connections: number;
  /** Responses larger than this fail instead of exhausting memory. */
  maxResponseBytes: number;
  retryPolicy?: Partial<RetryPolicy>;
  /**
   * The rate-limit gate this client's requests pass (shared by a crawl's requests, or by every
   * crawl of a service in the process). Default: a gate of its own.
   */
  gate?: RateLimitGate;
  /** The crawl's rate-limit waiting budget. Default: 10 minutes. */
  rateLimitBudget?: WaitBudget;
  /** For the message when the rate-limit budget runs out: what the crawl needs, e.g. "this site needs 87 pages of 100". */
  describeNeed?: () => string;
  /** Who waits for the answer: a build (the default) or a reader of an on-demand page. Words the advice. */
  audience?: "build" | "request";
  /** Every 2xx JSON body as parsed, before any fix-up or contract check (for contract reports). */
  onBody?: (url: string, body: unknown) => void;
  /** Injected in tests to make backoff deterministic and instant. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Told about each retry after a failure (not about rate-limit pauses: the gate reports those), for logging. */
  onRetry?: (event: { url: string; reason: string; attempt: number; waitMs: number }) => void;
}

export interface FetchedPage {
  url: string;
  body: CommentListResponse;
}

export interface CommentsClient {
  fetchPage(page: number, perPage: number): Promise<FetchedPage>;
  readonly requests: number;
  readonly retries: number;
  /** Requests the service refused with 429. */
  readonly rateLimited: number;
  /** Response bytes received, all attempts included. */
  readonly bytes: number;
  close(): Promise<void>;
}

const userAgent = "astro-comments (+https://www.npmjs.com/package/astro-comments)";

export function pageUrl(endpoint: URL, domain: string, page: number, perPage: number): string {
  const url = new URL(endpoint);
  url.searchParams.set("domain", domain);
  url.searchParams.set("per_page", String(perPage));
  url.searchParams.set("page", String(page));
  return url.toString();
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** What went wrong on the wire, in words: the phase it failed in matters more than undici's code. */
function describeAttemptFailure(error: unknown, phase: "headers" | "body", timedOutAfterMs: number | undefined, bytes: number): { reason: string; timeout: boolean } {
  if (timedOutAfterMs !== undefined) {
    return phase === "headers"
      ? { reason: `no response headers within ${seconds(timedOutAfterMs)}`, timeout: true }
      : { reason: `the response body was still arriving after ${seconds(timedOutAfterMs)} (${bytes} bytes received; the API is stalled or trickling)`, timeout: true };
  }
  const err = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.cause?.code ?? err.code;
  const detail = err.cause?.message ?? err.message ?? "";
  // undici's words can carry the bytes it choked on (a header value, a status line).
  const text = escapeControlCharacters(code !== undefined && !detail.includes(code) ? `${code}: ${detail}` : detail).slice(0, 200);
  const where = phase === "headers" ? "before the response" : `in the middle of the response body (${bytes} bytes received)`;
  return { reason: `the connection failed ${where}: ${text || String(error)}`, timeout: false };
}

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

/**
 * A redirect's target as a message may show it: resolved against the request, without user and
 * password, quoted. Undefined without a Location header.
 */
function redirectTarget(location: string | undefined, url: string): { shown: string; apiUrl: string | undefined } | undefined {
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
  const base = path.endsWith("/api/comments") ? `${target.origin}${path.slice(0, -"/api/comments".length)}` : target.origin;
  const safeBase = (target.protocol === "https:" || target.protocol === "http:") && escapeControlCharacters(base) === base ? base : undefined;
  return { shown: quoteServiceText(target.href, 120), apiUrl: safeBase };
}

/** `redact` is applied to the service's words before they are quoted: an excerpt may not cut the token in half. */
function refusal(status: number, body: unknown, location: string | undefined, url: string, domain: string, perPage: number, redact: (text: string) => string): { failure: CommentsApiFailure; message: string; action: string; perPage?: { limit: number | undefined } } {
  if (status >= 300 && status < 400) {
    // Not followed: the token travels with the request, and a redirect may point anywhere.
    const target = redirectTarget(location === undefined ? undefined : redact(location), url);
    return {
      failure: "redirected",
      message: target ? `the comments API redirected the request to ${target.shown}, and redirects are not followed (the API token would go with them)` : "the comments API answered with a redirect without a target, and redirects are not followed",
      action: target?.apiUrl ? `Set COMMENTS_API_URL (or the apiUrl option) to the final address, ${target.apiUrl}, if you trust it.` : "Set COMMENTS_API_URL (or the apiUrl option) to the service's final address.",
    };
  }
  switch (status) {
    case 401:
      return { failure: "unauthorized", message: "the comments API rejected the API token", action: "Check COMMENTS_API_TOKEN (or the apiToken option): it must be a current token from your comments account's admin area." };
    case 403:
      return { failure: "forbidden", message: `the API token may not read comments of "${domain}"`, action: "Check COMMENTS_DOMAIN (or the domain option): it must be the site's domain exactly as configured in your comments account, and the token must belong to that account." };
    case 404:
      return { failure: "not-found", message: "the comments API endpoint was not found", action: "Check COMMENTS_API_URL (or the apiUrl option): it should be the service's base URL, e.g. https://go.jamcomments.com." };
    default: {
      const errors = (body as Partial<ValidationError> | undefined)?.errors ?? {};
      const perPageMessage = errors.per_page?.join(" ");
      if (perPageMessage !== undefined) {
        // Laravel words its max rule "may not be greater than 100" (8.x) or "must not be greater than 100" (9+).
        const limit = /greater than (\d+)/.exec(perPageMessage)?.[1];
        return {
          failure: "invalid-request",
          message: `the comments API refused per_page=${perPage} (${quoteServiceText(redact(perPageMessage), 120)})`,
          action: limit ? `Set the perPage option to ${limit} or less.` : "Set the perPage option lower (50 is accepted by every version of the service).",
          perPage: { limit: limit === undefined ? undefined : Number(limit) },
        };
      }
      const detail = quoteServiceText(redact(Object.entries(errors).map(([field, messages]) => `${field}: ${(messages ?? []).join(" ")}`).join("; ")), 160);
      return { failure: "invalid-request", message: `the comments API refused the request${detail !== '""' ? ` (${detail})` : ""}`, action: "Check the domain option. If it looks right, the API may have changed: please report it with this message." };
    }
  }
}

/** The meta fields the client reads from decimal strings (contract reports tolerate exactly these). */
export const metaNumbers = ["current_page", "from", "to", "last_page", "per_page", "total"] as const;

/** A decimal string the client reads as the number it spells. */
export const isDecimalString = (value: unknown): value is string => typeof value === "string" && /^(0|[1-9][0-9]{0,14})$/.test(value);

/**
 * Laravel before 9.2 sends `per_page` as the query string it was given ("50"). A decimal string is
 * read as the number it spells; anything else is left for the schema to reject.
 */
function readDecimalStrings(body: unknown): void {
  const meta = (body as { meta?: Record<string, unknown> } | null)?.meta;
  if (meta === null || typeof meta !== "object") return;
  for (const key of metaNumbers) {
    const value = meta[key];
    if (isDecimalString(value)) meta[key] = Number(value);
  }
}

/**
 * JSON.parse's reason without its own excerpt of the body: V8 quotes the body raw, newlines and
 * all ("Unexpected token '<', "<br />\n<b>"... is not valid JSON"), and the message quotes the start
 * of the body itself, safely.
 */
function parserReason(error: Error): string {
  return escapeControlCharacters(error.message.replace(/, "[\s\S]*$/, "")).slice(0, 120);
}

export function createCommentsClient(options: CommentsClientOptions): CommentsClient {
  const policy: RetryPolicy = { ...defaultRetryPolicy, ...options.retryPolicy };
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const now = options.now ?? (() => performance.now());
  const gate = options.gate ?? new RateLimitGate({ now, sleep, random });
  const budget: WaitBudget = options.rateLimitBudget ?? { limitMs: DEFAULT_RATE_LIMIT_WAIT_MS, waitedMs: 0 };
  const again = options.audience === "request" ? "try again later" : "build again later";
  const agent = new Agent({ connections: options.connections, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs });
  // Tolerant: an extra field from the service is dropped, not fatal; named fields are checked exactly.
  const contract = createContractValidator({ tolerateUnknownProperties: true });
  // Belt and braces: the token only travels in a header, but no message may ever carry it. Tokens
  // too short to be real are left alone, or every "t" of a message would go.
  const redact = (text: string) => (options.token.length >= 8 ? text.split(options.token).join("[token]") : text);
  let requests = 0;
  let retries = 0;
  let rateLimited = 0;
  let bytes = 0;

  function parsePage(text: string, contentType: string, url: string, status: number): CommentListResponse {
    // Redacted before it is cut, so no excerpt ends inside the token.
    const snippet = quoteServiceText(redact(text.slice(0, 4096)));
    if (contentType !== "" && !/\bjson\b/i.test(contentType)) {
      throw new CommentsApiError({ failure: "malformed", url, status, message: `expected JSON but the response is ${quoteServiceText(redact(contentType.split(";")[0]!), 40)} (starts ${snippet})`, action: "COMMENTS_API_URL may point at a web page or a proxy's error page rather than the comments API." });
    }
    let body: unknown;
    try {
      // A UTF-8 byte order mark is not JSON, but RFC 8259 lets a parser ignore it: it is a Windows editor's habit, not damage.
      body = JSON.parse(text.startsWith("\ufeff") ? text.slice(1) : text);
    } catch (error) {
      throw new CommentsApiError({ failure: "malformed", url, status, message: `the response is not valid JSON (${parserReason(error as Error)}; starts ${snippet})`, action: "The comments API sent a broken body; try again, and report it to the service if it persists." });
    }
    options.onBody?.(url, body);
    readDecimalStrings(body);
    const problems = contract.validate("listResponse", body);
    if (problems.length > 0) {
      throw new CommentsApiError({ failure: "contract", url, status, message: `the response does not match the comments API contract (${describeSchemaErrors(problems)})`, action: "The service changed its response shape, or COMMENTS_API_URL points at another API; nothing was rendered from it." });
    }
    return body as CommentListResponse;
  }

  function budgetExceeded(exceeded: RateLimitBudgetExceeded, url: string, status: number | undefined, attempts: number): CommentsApiError {
    const { pause, budget: spent } = exceeded;
    const limit = describeLimit(pause.limit, pause.periodMs);
    const left = Math.max(0, spent.limitMs - spent.waitedMs);
    const need = options.describeNeed?.();
    return new CommentsApiError({
      failure: "rate-limited", url, status, attempts,
      message: `the comments service's rate limit${limit ? ` (${limit})` : ""} asks to wait ${pause.retryAfter === undefined ? seconds(pause.waitMs) : `${pause.retryAfter} s (Retry-After)`}, more than the ${seconds(left)} left of rateLimitWait (${seconds(spent.limitMs)})${need ? `; ${need}` : ""}`,
      action: options.audience === "request"
        ? "Try again later."
        : `Raise the rateLimitWait option to at least ${Math.ceil((spent.waitedMs + pause.waitMs) / 60_000) * 60_000} (milliseconds) so the crawl waits the limit out, or ask the service for a higher limit.`,
    });
  }

  // What the service sends back may quote the token (a redirect's target, an error page that echoes
  // the request): its words are redacted before they are quoted, and every message leaves here
  // redacted again, whatever put the token in it.
  async function fetchPage(page: number, perPage: number): Promise<FetchedPage> {
    try {
      return await fetchPageOnce(page, perPage);
    } catch (error) {
      if (error instanceof Error) error.message = redact(error.message);
      throw error;
    }
  }

  async function fetchPageOnce(page: number, perPage: number): Promise<FetchedPage> {
    const url = pageUrl(options.endpoint, options.domain, page, perPage);
    const started = now();
    // Waiting on the rate limit is not the service being down: it is charged to rateLimitWait.
    let gateWaited = 0;
    const elapsed = () => now() - started - gateWaited;
    let transientRetries = 0;

    /** Waits before the next attempt if the request's budget allows one more; false when it does not. */
    async function retryWithin(waitMs: number, reason: string, attempt: number): Promise<boolean> {
      // The next attempt needs its wait plus a fair chance to answer (half a timeout).
      if (elapsed() + waitMs + options.timeoutMs / 2 > policy.giveUpAfterMs) return false;
      retries++;
      options.onRetry?.({ url, reason, attempt, waitMs });
      await sleep(waitMs);
      return true;
    }
    const spent = (attempt: number) => `${attempt} attempt${attempt === 1 ? "" : "s"} over ${seconds(elapsed())}`;

    for (let attempt = 1; ; attempt++) {
      let admission;
      try {
        admission = await gate.enter(budget);
      } catch (error) {
        throw error instanceof RateLimitBudgetExceeded ? budgetExceeded(error, url, undefined, attempt - 1) : error;
      }
      gateWaited += admission.waitedMs;
      requests++;
      const attemptTimeout = Math.max(1, Math.min(options.timeoutMs, policy.giveUpAfterMs - elapsed()));
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, attemptTimeout);
      let phase: "headers" | "body" = "headers";
      let received = 0;
      let status: number;
      let text: string;
      let headers: Record<string, string | string[] | undefined>;
      try {
        const response = await request(url, {
          dispatcher: agent,
          method: "GET",
          headers: { authorization: `Bearer ${options.token}`, accept: "application/json", "user-agent": userAgent },
          signal: controller.signal,
        });
        phase = "body";
        status = response.statusCode;
        headers = response.headers;
        const chunks: Buffer[] = [];
        for await (const chunk of response.body as AsyncIterable<Buffer>) {
          received += chunk.length;
          if (received > options.maxResponseBytes) {
            controller.abort();
            throw new CommentsApiError({ failure: "too-large", url, status, message: `a response was larger than ${options.maxResponseBytes} bytes`, action: "Lower the perPage option, or raise maxResponseBytes if pages of this size are expected." });
          }
          chunks.push(chunk);
        }
        text = Buffer.concat(chunks).toString("utf8");
      } catch (error) {
        admission.leave(undefined);
        if (error instanceof CommentsApiError) throw error;
        const { reason, timeout } = describeAttemptFailure(error, phase, timedOut ? attemptTimeout : undefined, received);
        if (transientRetries < policy.retries && (await retryWithin(backoffDelay(transientRetries, policy, random), redact(reason), attempt))) {
          transientRetries++;
          continue;
        }
        throw new CommentsApiError({
          failure: timeout ? "timeout" : "network", url, attempts: attempt,
          message: `the comments API did not answer: ${redact(reason)}; gave up after ${spent(attempt)}`,
          action: timeout ? `The service is hung or overloaded: ${again}, or raise the timeout option.` : `Check COMMENTS_API_URL and the network; the service may be down. ${again[0]!.toUpperCase()}${again.slice(1)}.`,
        });
      } finally {
        clearTimeout(timer);
        bytes += received;
      }

      const kind = classifyStatus(status);
      if (kind === "rate-limited") {
        rateLimited++;
        const header = headers["retry-after"];
        const retryAfter = parseRetryAfter(Array.isArray(header) ? header[0] : header, Date.now());
        try {
          // Before leaving, so no request waiting at the gate slips out ahead of the pause.
          gate.refused(retryAfter, readRateLimitHeaders(headers, Date.now()), budget);
        } catch (error) {
          throw error instanceof RateLimitBudgetExceeded ? budgetExceeded(error, url, status, attempt) : error;
        } finally {
          admission.leave(undefined);
        }
        continue;
      }
      admission.leave(readRateLimitHeaders(headers, Date.now()));
      if (kind === "ok") return { url, body: parsePage(text, String(headers["content-type"] ?? ""), url, status) };
      if (kind === "retry") {
        if (transientRetries < policy.retries && (await retryWithin(backoffDelay(transientRetries, policy, random), `HTTP ${status}`, attempt))) {
          transientRetries++;
          continue;
        }
        throw new CommentsApiError({ failure: "server-error", url, status, attempts: attempt, message: `the comments API kept failing (${spent(attempt)})`, action: `The service is having trouble; ${again}.` });
      }
      let errorBody: unknown;
      try {
        errorBody = JSON.parse(text);
      } catch {
        errorBody = undefined;
      }
      const location = headers["location"];
      const { perPage: perPageRefusal, ...refused } = refusal(status, errorBody, Array.isArray(location) ? location[0] : location, url, options.domain, perPage, redact);
      const details = { url, status, attempts: attempt, ...refused };
      throw perPageRefusal ? new PerPageRefused(details, perPageRefusal.limit) : new CommentsApiError(details);
    }
  }

  return {
    fetchPage,
    get requests() {
      return requests;
    },
    get retries() {
      return retries;
    },
    get rateLimited() {
      return rateLimited;
    },
    get bytes() {
      return bytes;
    },
    // destroy, not close: after a failed crawl nothing may keep a hung socket (and the build) alive.
    close: () => agent.destroy(),
  };
}

// One page of the comments list over HTTP (a Transport: fetch by default): bearer auth, a deadline per attempt and per
// request, retries with backoff, the crawl-wide rate-limit gate, fail-fast on 4xx, size limit,
// content-type, JSON and schema checks. Every error names the URL and status; the token never
// leaves the Authorization header. This is the loop: send, classify, retry or throw. What each
// failure says is in errors-data.ts, and refusals.ts reads an answer or a failed attempt into it.
import type { CommentListResponse } from "./generated/api-types.ts";
import { createContractValidator, describeSchemaErrors } from "./generated/list-response-contract.ts";
import {
  ApiTimedOut,
  ApiUnreachable,
  ContractBroken,
  InvalidJson,
  NotJsonContentType,
  ResponseTooLarge,
  RuntimeCannotSend,
  ServerKeptFailing,
} from "../errors-data.ts";
import { apiError, CommentsApiError } from "./api-error.ts";
import {
  DEFAULT_RATE_LIMIT_WAIT_MS,
  RateLimitBudgetExceeded,
  RateLimitGate,
  readRateLimitHeaders,
  type WaitBudget,
} from "./rate-limit-gate.ts";
import { describeAttemptFailure, parserReason, rateLimitRefusal, refusal, runtimeLimit } from "./refusals.ts";
import { backoffDelay, classifyStatus, defaultRetryPolicy, parseRetryAfter, type RetryPolicy } from "./retry-policy.ts";
import { quoteServiceText } from "./service-text.ts";
import { fetchTransport, type Transport } from "./transport.ts";

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
  /**
   * What sends the requests. Default: the platform's fetch(), which runs wherever the code may
   * (Node, workerd); the build passes undici's pooled client (undici-transport.ts).
   */
  transport?: Transport;
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

function pageUrl(endpoint: URL, domain: string, page: number, perPage: number): string {
  const url = new URL(endpoint);
  url.searchParams.set("domain", domain);
  url.searchParams.set("per_page", String(perPage));
  url.searchParams.set("page", String(page));
  return url.toString();
}

/** The meta fields the client reads from decimal strings (contract reports tolerate exactly these). */
export const metaNumbers = ["current_page", "from", "to", "last_page", "per_page", "total"] as const;

/** A decimal string the client reads as the number it spells. */
export const isDecimalString = (value: unknown): value is string =>
  typeof value === "string" && /^(0|[1-9][0-9]{0,14})$/.test(value);

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

// ignoreBOM keeps a byte order mark in the text, where parsePage looks for it.
function decodeUtf8(chunks: readonly Uint8Array[], length: number): string {
  const whole = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(whole);
}

export function createCommentsClient(options: CommentsClientOptions): CommentsClient {
  const policy: RetryPolicy = { ...defaultRetryPolicy, ...options.retryPolicy };
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? (() => performance.now());
  const gate = options.gate ?? new RateLimitGate({ now, sleep, random });
  const budget: WaitBudget = options.rateLimitBudget ?? { limitMs: DEFAULT_RATE_LIMIT_WAIT_MS, waitedMs: 0 };
  const wire = (options.transport ?? fetchTransport)({
    connections: options.connections,
    timeoutMs: options.timeoutMs,
  });
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
      throw apiError(
        NotJsonContentType,
        { url, status },
        { contentType: quoteServiceText(redact(contentType.split(";")[0]!), 40), start: snippet },
      );
    }
    let body: unknown;
    try {
      // A UTF-8 byte order mark is not JSON, but RFC 8259 lets a parser ignore it: it is a Windows editor's habit, not damage.
      body = JSON.parse(text.startsWith("\ufeff") ? text.slice(1) : text);
    } catch (error) {
      throw apiError(InvalidJson, { url, status }, { reason: parserReason(error as Error), start: snippet });
    }
    options.onBody?.(url, body);
    readDecimalStrings(body);
    const problems = contract.validate("listResponse", body);
    if (problems.length > 0) {
      throw apiError(ContractBroken, { url, status }, { problems: describeSchemaErrors(problems) });
    }
    return body as CommentListResponse;
  }

  const budgetExceeded = (
    exceeded: RateLimitBudgetExceeded,
    url: string,
    status: number | undefined,
    attempts: number,
  ) => rateLimitRefusal(exceeded, { url, status, attempts }, options.audience, options.describeNeed?.());

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
    await wire.ready?.();
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
        const response = await wire.get(
          url,
          { authorization: `Bearer ${options.token}`, accept: "application/json", "user-agent": userAgent },
          controller.signal,
        );
        phase = "body";
        status = response.status;
        headers = response.headers;
        // Counted as decoded, so a compressed answer stops at the limit however small it was on the wire.
        const chunks: Uint8Array[] = [];
        for await (const chunk of response.body) {
          received += chunk.length;
          if (received > options.maxResponseBytes) {
            controller.abort();
            throw apiError(ResponseTooLarge, { url, status }, { maxBytes: options.maxResponseBytes });
          }
          chunks.push(chunk);
        }
        text = decodeUtf8(chunks, received);
      } catch (error) {
        admission.leave(undefined);
        if (error instanceof CommentsApiError) throw error;
        const lacking = runtimeLimit(error);
        if (lacking !== undefined) throw apiError(RuntimeCannotSend, { url, attempts: attempt }, lacking);
        const { reason, timeout } = describeAttemptFailure(
          error,
          phase,
          timedOut ? attemptTimeout : undefined,
          received,
        );
        if (
          transientRetries < policy.retries &&
          (await retryWithin(backoffDelay(transientRetries, policy, random), redact(reason), attempt))
        ) {
          transientRetries++;
          continue;
        }
        throw apiError(
          timeout ? ApiTimedOut : ApiUnreachable,
          { url, attempts: attempt },
          { reason: redact(reason), attempts: attempt, elapsedMs: elapsed(), audience: options.audience },
        );
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
        if (
          transientRetries < policy.retries &&
          (await retryWithin(backoffDelay(transientRetries, policy, random), `HTTP ${status}`, attempt))
        ) {
          transientRetries++;
          continue;
        }
        throw apiError(
          ServerKeptFailing,
          { url, status, attempts: attempt },
          { attempts: attempt, elapsedMs: elapsed(), audience: options.audience },
        );
      }
      let errorBody: unknown;
      try {
        errorBody = JSON.parse(text);
      } catch {
        errorBody = undefined;
      }
      const location = headers["location"];
      throw refusal(
        { url, status, attempts: attempt },
        errorBody,
        Array.isArray(location) ? location[0] : location,
        options.domain,
        perPage,
        redact,
      );
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
    close: () => wire.close(),
  };
}

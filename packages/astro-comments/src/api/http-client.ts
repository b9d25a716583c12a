// One page of the comments list over HTTP (undici): bearer auth, timeouts, retries with backoff
// and jitter, Retry-After on 429, fail-fast on 4xx, size limit, content-type, JSON and schema
// checks. Every error names the URL and status; the token never leaves the Authorization header.
import { setTimeout as delay } from "node:timers/promises";
import { createContractValidator, describeSchemaErrors, type CommentListResponse, type ValidationError } from "@astro-comments/schema";
import { Agent, request } from "undici";
import { CommentsApiError } from "../errors.ts";
import { backoffDelay, classifyStatus, defaultRetryPolicy, parseRetryAfter, type RetryPolicy } from "./retry-policy.ts";

export interface CommentsClientOptions {
  /** The list endpoint, e.g. https://go.jamcomments.com/api/comments. */
  endpoint: URL;
  token: string;
  domain: string;
  /** Per-request timeout (headers and body), in ms. */
  timeoutMs: number;
  /** Open connections at most. */
  connections: number;
  /** Responses larger than this fail instead of exhausting memory. */
  maxResponseBytes: number;
  retryPolicy?: Partial<RetryPolicy>;
  /** Injected in tests to make backoff deterministic and instant. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Told about each retry, for logging. */
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

function describeNetworkError(error: unknown): { reason: string; timeout: boolean } {
  const err = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = err.code ?? err.cause?.code;
  const timeout = err.name === "TimeoutError" || (code !== undefined && /TIMEOUT/.test(code));
  const text = [code, err.message, err.cause?.message].filter((part) => part !== undefined && part !== "").join(": ");
  return { reason: text || String(error), timeout };
}

function fatalHint(status: number, body: unknown, domain: string): { failure: "unauthorized" | "forbidden" | "invalid-request" | "not-found"; message: string; hint: string } {
  switch (status) {
    case 401:
      return { failure: "unauthorized", message: "the comments API rejected the API token", hint: "Check COMMENTS_API_TOKEN (or the apiToken option): it must be a current token from your comments account's admin area." };
    case 403:
      return { failure: "forbidden", message: `the API token may not read comments of "${domain}"`, hint: "Check COMMENTS_DOMAIN (or the domain option): it must be the site's domain exactly as configured in your comments account, and the token must belong to that account." };
    case 404:
      return { failure: "not-found", message: "the comments API endpoint was not found", hint: "Check COMMENTS_API_URL (or the apiUrl option): it should be the service's base URL, e.g. https://go.jamcomments.com." };
    default: {
      const errors = (body as Partial<ValidationError> | undefined)?.errors;
      const detail = errors ? Object.entries(errors).map(([field, messages]) => `${field}: ${(messages ?? []).join(" ")}`).join("; ") : "";
      return { failure: "invalid-request", message: `the comments API refused the request${detail ? ` (${detail})` : ""}`, hint: "Check the domain and perPage options. If they look right, the API may have changed: please report it with this message." };
    }
  }
}

export function createCommentsClient(options: CommentsClientOptions): CommentsClient {
  const policy: RetryPolicy = { ...defaultRetryPolicy, ...options.retryPolicy };
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const agent = new Agent({ connections: options.connections, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs });
  // Tolerant: an extra field from the service is dropped, not fatal; named fields are checked exactly.
  const contract = createContractValidator({ tolerateUnknownProperties: true });
  const redact = (text: string) => (options.token ? text.split(options.token).join("[token]") : text);
  let requests = 0;
  let retries = 0;
  let bytes = 0;

  async function readBody(body: AsyncIterable<Buffer>, url: string, status: number): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > options.maxResponseBytes) {
        throw new CommentsApiError({ failure: "too-large", url, status, message: `a response was larger than ${options.maxResponseBytes} bytes`, hint: "Lower the perPage option, or raise maxResponseBytes if pages of this size are expected." });
      }
      chunks.push(chunk);
    }
    bytes += size;
    return Buffer.concat(chunks).toString("utf8");
  }

  function parsePage(text: string, contentType: string, url: string, status: number): CommentListResponse {
    const snippet = JSON.stringify(text.slice(0, 80));
    if (contentType !== "" && !/\bjson\b/i.test(contentType)) {
      throw new CommentsApiError({ failure: "malformed", url, status, message: `expected JSON but the response is ${contentType.split(";")[0]} (starts ${snippet})`, hint: "COMMENTS_API_URL may point at a web page or a proxy's error page rather than the comments API." });
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      throw new CommentsApiError({ failure: "malformed", url, status, message: `the response is not valid JSON (${(error as Error).message}; starts ${snippet})`, hint: "The comments API sent a broken body. Try again; if it persists, report it to the service." });
    }
    const problems = contract.validate("listResponse", body);
    if (problems.length > 0) {
      throw new CommentsApiError({ failure: "contract", url, status, message: `the response does not match the comments API contract (${describeSchemaErrors(problems)})`, hint: "The service changed its response shape or COMMENTS_API_URL points at another API. Nothing was rendered from it." });
    }
    return body as CommentListResponse;
  }

  async function waitAndRetry(url: string, reason: string, attempt: number, waitMs: number): Promise<void> {
    retries++;
    options.onRetry?.({ url, reason, attempt, waitMs });
    await sleep(waitMs);
  }

  async function fetchPage(page: number, perPage: number): Promise<FetchedPage> {
    const url = pageUrl(options.endpoint, options.domain, page, perPage);
    let networkRetries = 0;
    let rateLimitWaits = 0;
    for (let attempt = 1; ; attempt++) {
      requests++;
      let status: number;
      let text: string;
      let headers: Record<string, string | string[] | undefined>;
      try {
        const response = await request(url, {
          dispatcher: agent,
          method: "GET",
          headers: { authorization: `Bearer ${options.token}`, accept: "application/json", "user-agent": userAgent },
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        status = response.statusCode;
        headers = response.headers;
        text = await readBody(response.body, url, status);
      } catch (error) {
        if (error instanceof CommentsApiError) throw error;
        const { reason, timeout } = describeNetworkError(error);
        if (networkRetries < policy.retries) {
          await waitAndRetry(url, redact(reason), attempt, backoffDelay(networkRetries++, policy, random));
          continue;
        }
        throw new CommentsApiError({
          failure: timeout ? "timeout" : "network", url, attempts: attempt, cause: error,
          message: `could not reach the comments API after ${attempt} attempts (${redact(reason)})`,
          hint: timeout ? "The API did not answer in time. Raise the timeout option, or try again later." : "Check COMMENTS_API_URL and your network; the service may be down. Try again later.",
        });
      }

      const kind = classifyStatus(status);
      if (kind === "ok") return { url, body: parsePage(text, String(headers["content-type"] ?? ""), url, status) };
      if (kind === "retry" && networkRetries < policy.retries) {
        await waitAndRetry(url, `HTTP ${status}`, attempt, backoffDelay(networkRetries++, policy, random));
        continue;
      }
      if (kind === "retry") {
        throw new CommentsApiError({ failure: "server-error", url, status, attempts: attempt, message: `the comments API kept failing (${attempt} attempts)`, hint: "The service is having trouble. Try the build again later." });
      }
      if (kind === "rate-limited") {
        const header = headers["retry-after"];
        const retryAfter = parseRetryAfter(Array.isArray(header) ? header[0] : header, Date.now());
        if (rateLimitWaits < policy.maxRateLimitWaits && (retryAfter ?? 0) <= policy.maxRetryAfterSeconds) {
          rateLimitWaits++;
          // Without Retry-After, fall back to backoff; with it, wait exactly as asked plus a little jitter.
          const waitMs = retryAfter === undefined ? backoffDelay(rateLimitWaits, policy, random) : retryAfter * 1000 + Math.floor(random() * 250);
          await waitAndRetry(url, `HTTP 429, Retry-After ${retryAfter ?? "absent"}`, attempt, waitMs);
          continue;
        }
        throw new CommentsApiError({ failure: "rate-limited", url, status, attempts: attempt, message: `the comments API kept rate-limiting the build (Retry-After ${retryAfter ?? "absent"} s)`, hint: "Lower the concurrency option, or build again after the rate-limit window." });
      }
      let errorBody: unknown;
      try {
        errorBody = JSON.parse(text);
      } catch {
        errorBody = undefined;
      }
      throw new CommentsApiError({ url, status, attempts: attempt, ...fatalHint(status, errorBody, options.domain) });
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
    get bytes() {
      return bytes;
    },
    close: () => agent.close(),
  };
}

// Writing a JSON answer the way a Laravel app does: which encoder a status gets, and its headers.
import type { ServerResponse } from "node:http";
import { phpJsonEncode, phpJsonEncodePage, phpJsonPretty } from "./laravel/json-encoding.ts";

export const jsonHeaders = { "content-type": "application/json", "cache-control": "no-cache, private" };

export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  head: boolean,
  headers: Record<string, string | number> = {},
): void {
  // Laravel answers HTTP exceptions (403, 404, 405, 429, 5xx) pretty-printed, the rest compact.
  const pretty = status === 403 || status === 404 || status === 405 || status === 429 || status >= 500;
  const bytes = pretty ? Buffer.from(phpJsonPretty(body)) : encodeCompact(body);
  res.writeHead(status, { ...jsonHeaders, ...headers, "content-length": bytes.length });
  res.end(head ? undefined : bytes);
}

/** A text answer (a Laravel redirect or HTML error page) with its own headers. */
export function sendText(
  res: ServerResponse,
  answer: { status: number; headers: Record<string, string | number>; body: string },
  head: boolean,
): void {
  const bytes = Buffer.from(answer.body);
  res.writeHead(answer.status, { ...answer.headers, "content-length": bytes.length });
  res.end(head ? undefined : bytes);
}

export function encodeCompact(body: unknown): Buffer {
  const isPage = typeof body === "object" && body !== null && Array.isArray((body as { data?: unknown }).data);
  return isPage ? phpJsonEncodePage(body as { data: object[] }) : Buffer.from(phpJsonEncode(body), "latin1");
}

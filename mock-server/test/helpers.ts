import { createContractValidator, describeSchemaErrors, type CommentListResponse, type CommentThread, type SchemaName } from "@astro-comments/schema";
import { expect } from "vitest";

export const contract = createContractValidator();

export function expectValid(name: SchemaName, body: unknown): void {
  const errors = contract.validate(name, body);
  expect(errors, describeSchemaErrors(errors)).toEqual([]);
}

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** The list endpoint's answer as bytes on the wire (decoded as text), for PHP encoding checks. */
export async function getRaw(baseUrl: string, query: string, token?: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const response = await fetch(`${baseUrl}/api/comments${query ? `?${query}` : ""}`, {
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

export async function get(baseUrl: string, query: string, token?: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { status, headers: responseHeaders, text } = await getRaw(baseUrl, query, token, headers);
  return { status, headers: responseHeaders, body: text ? JSON.parse(text) : undefined };
}

/** Every top-level comment of a domain, page by page, as a client walks them. */
export async function crawl(baseUrl: string, token: string, domain: string, perPage: number): Promise<CommentThread[]> {
  const seen: CommentThread[] = [];
  for (let page = 1; ; page++) {
    const answer = await get(baseUrl, `domain=${domain}&per_page=${perPage}&page=${page}`, token);
    expect(answer.status).toBe(200);
    const body = answer.body as CommentListResponse;
    seen.push(...body.data);
    if (page >= Number(body.meta.last_page)) return seen;
  }
}

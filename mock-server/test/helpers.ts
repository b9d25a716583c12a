import { createContractValidator, describeSchemaErrors, type SchemaName } from "@astro-comments/schema";
import { expect } from "vitest";

export const contract = createContractValidator();

export function expectValid(name: SchemaName, body: unknown): void {
  const errors = contract.validate(name, body);
  expect(errors, describeSchemaErrors(errors)).toEqual([]);
}

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

export async function get(baseUrl: string, query: string, token?: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${baseUrl}/api/comments${query ? `?${query}` : ""}`, {
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

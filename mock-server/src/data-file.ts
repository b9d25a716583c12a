// The comments data file: one domain's comments as `comments-mock record` writes them and
// `comments-mock --data` serves them. Its JSON Schema is @astro-comments/schema's
// comments-mock-data.schema.json, which takes the fields' rules from the API contract itself.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createContractAjv, type CommentThread, type SchemaError } from "@astro-comments/schema";
import type { StoredComment, StoredStatus } from "./dataset/generate-dataset.ts";
import { paragraphHtml } from "./dataset/text-corpus.ts";
import { jsonPath, valueAt } from "./json-path.ts";

export const mockDataFormat = "comments-mock-data";
export const mockDataVersion = 1;
const schemaFile = "comments-mock-data.schema.json";

/** A comment in a data file: the API's fields, with defaults for what a hand-written file leaves out. */
export interface MockDataComment {
  /** As the service writes it: 2023-11-26T06:30:07.000000Z. */
  created_at: string;
  content: string;
  /** Default: the content, escaped, as one paragraph. */
  html?: string;
  /** Default "approved"; others are kept in the file but never served. */
  status?: StoredStatus;
  name: string;
}

export interface MockDataThread extends MockDataComment {
  path: string;
  /** Replies. Default none. */
  children?: MockDataReply[];
}

export interface MockDataReply extends MockDataComment {
  /** Default: the top-level comment's. */
  path?: string;
}

/**
 * A data file's content (format version 1). Threads may come in any order: they are served as the
 * service serves them, oldest first, with the file's order breaking ties.
 * @example
 * const data: MockData = {
 *   format: "comments-mock-data",
 *   version: 1,
 *   domain: "my-site.test",
 *   comments: [{ created_at: "2026-01-02T10:00:00.000000Z", name: "Ann", content: "First!", path: "/posts/hello" }],
 * };
 */
export interface MockData {
  $schema?: string;
  format: typeof mockDataFormat;
  version: typeof mockDataVersion;
  domain: string;
  /** When `comments-mock record` fetched the comments, ISO 8601 UTC. */
  recordedAt?: string;
  comments: MockDataThread[];
}

/** A data file's path (or file: URL), or its content already parsed. */
export type MockDataSource = string | URL | MockData;

/** A data file that cannot be served; the message names the file, the record and the field. */
export class MockDataError extends Error {
  override name = "MockDataError";
}

type Validate = NonNullable<ReturnType<ReturnType<typeof createContractAjv>["getSchema"]>>;
let validator: Validate | undefined;

/**
 * Reads, parses and checks a data file (or checks given content); throws MockDataError naming the
 * record and field that are wrong.
 * @example
 * const data = loadMockData("test/fixtures/comments.json");
 * console.log(`${data.comments.length} threads on ${data.domain}`);
 */
export function loadMockData(source: MockDataSource): MockData {
  if (typeof source === "object" && !(source instanceof URL)) return checkMockData(source, "the comments data");
  const file = source instanceof URL ? fileURLToPath(source) : resolve(source);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === "ENOENT" ? "there is no such file" : (error as Error).message;
    throw new MockDataError(
      `Cannot load the comments data file ${file}: ${reason}. Pass a file that \`comments-mock record --out FILE\` wrote, or one written by hand in its format (see the mock's README).`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new MockDataError(
      `Cannot load the comments data file ${file}: it is not JSON (${(error as Error).message}). Fix the JSON, or record the file again with \`comments-mock record --out ${file}\`.`,
    );
  }
  return checkMockData(parsed, `the comments data file ${file}`);
}

function checkMockData(content: unknown, what: string): MockData {
  const version = (content as { version?: unknown } | null)?.version;
  if (typeof version === "number" && version > mockDataVersion) {
    throw new MockDataError(
      `Cannot load ${what}: it is format version ${version}, and this comments-mock reads version ${mockDataVersion}. Upgrade @astro-comments/mock-server.`,
    );
  }
  validator ??= createContractAjv().getSchema(schemaFile);
  if (!validator) throw new Error(`${schemaFile} is missing from @astro-comments/schema; reinstall it.`);
  if (validator(content)) return content as MockData;
  const problems = describeProblems(validator.errors ?? [], content);
  throw new MockDataError(
    `Cannot load ${what}: ${problems}. Correct the record named, or record the file again with \`comments-mock record --out FILE\`.`,
  );
}

/** One phrase per problem (Ajv reports a bad value once per rule it breaks, e.g. format and pattern), at most three. */
function describeProblems(errors: readonly SchemaError[], content: unknown): string {
  const phrases = new Map<string, string>();
  for (const error of errors) {
    const field =
      error.keyword === "required" || error.keyword === "additionalProperties" ? JSON.stringify(error.params) : "";
    const key = `${error.instancePath} ${field}`;
    if (!phrases.has(key)) phrases.set(key, describe(error, content));
  }
  return list([...phrases.values()]);
}

function list(phrases: readonly string[]): string {
  return phrases.length > 3 ? `${phrases.slice(0, 3).join("; ")}; and ${phrases.length - 3} more` : phrases.join("; ");
}

function describe(error: SchemaError, content: unknown): string {
  const where = jsonPath(error.instancePath);
  const got = JSON.stringify(valueAt(content, error.instancePath)) ?? "nothing";
  const record = /^\/comments\/(\d+)/.exec(error.instancePath);
  const which = record ? ` (comment ${Number(record[1]) + 1} of ${(content as MockData).comments.length})` : "";
  if (error.instancePath.endsWith("/created_at") && ["type", "pattern", "format"].includes(error.keyword)) {
    return `${where}${which} must be a UTC time as the service writes it, such as 2023-11-26T06:30:07.000000Z, not ${got}`;
  }
  switch (error.keyword) {
    case "required":
      return `${where}${which} has no "${String(error.params.missingProperty)}"`;
    case "additionalProperties":
      return `${where}${which} has a field "${String(error.params.additionalProperty)}" that the format does not have`;
    case "const":
      return `${where} must be ${JSON.stringify(error.params.allowedValue)}, not ${got}`;
    case "enum":
      return `${where}${which} must be one of ${(error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(", ")}, not ${got}`;
    case "type":
      return `${where}${which} must be ${String(error.params.type) === "array" ? "an array" : `a ${String(error.params.type)}`}, not ${got}`;
    default:
      return `${where}${which} ${error.message ?? error.keyword}, not ${got}`;
  }
}

/**
 * A data file's comments as the mock stores them, on `domain` (default: the file's). Ids follow
 * the file's order from `firstId`, so that ties in created_at are served in the file's order.
 */
export function storedComments(data: MockData, domain = data.domain, firstId = 1): StoredComment[] {
  const stored: StoredComment[] = [];
  const add = (comment: MockDataComment, path: string, parentId: number | null) => {
    const entry: StoredComment = {
      id: firstId + stored.length,
      domain,
      parentId,
      status: comment.status ?? "approved",
      created_at: comment.created_at,
      content: comment.content,
      html: comment.html ?? paragraphHtml(comment.content),
      name: comment.name,
      path,
    };
    stored.push(entry);
    return entry.id;
  };
  for (const thread of data.comments) {
    const id = add(thread, thread.path, null);
    for (const reply of thread.children ?? []) add(reply, reply.path ?? thread.path, id);
  }
  return stored;
}

/** A data file's content for threads as the service served them. */
export function mockDataOf(domain: string, threads: readonly CommentThread[], recordedAt: Date): MockData {
  return {
    format: mockDataFormat,
    version: mockDataVersion,
    domain,
    recordedAt: recordedAt.toISOString(),
    comments: [...threads],
  };
}

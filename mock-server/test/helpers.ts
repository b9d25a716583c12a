import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  createContractValidator,
  describeSchemaErrors,
  type CommentListResponse,
  type CommentThread,
  type SchemaName,
} from "@astro-comments/schema";
import { expect } from "vitest";

const contract = createContractValidator();

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
export async function getRaw(
  baseUrl: string,
  query: string,
  token?: string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  // As every client must (the contract says so): a Laravel service answers errors in JSON only then.
  const response = await fetch(`${baseUrl}/api/comments${query ? `?${query}` : ""}`, {
    headers: { accept: "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

export async function get(
  baseUrl: string,
  query: string,
  token?: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
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

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

const cli = fileURLToPath(new URL("../src/cli/comments-mock.ts", import.meta.url));

/** Runs `comments-mock …args` (from source) to its end. */
export function runCli(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string | undefined> } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: "1", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export interface ServingCli {
  /** The first line printed, as a script reads it. */
  firstLine: string;
  url: string;
  token: string;
  domains: string[];
  /** Stops the mock (SIGTERM) and resolves with everything it printed. */
  close(): Promise<CliRun>;
}

/** Starts `comments-mock …args --port 0` and resolves once its first line is out. */
export function serveCli(args: readonly string[]): Promise<ServingCli> {
  const child = spawn(process.execPath, [cli, ...args, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  const exited = new Promise<CliRun>((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf("\n");
      if (newline < 0) return;
      const firstLine = stdout.slice(0, newline);
      const match = /^Comments API mock listening on (\S+) token=(\S+) domains=(\S+)$/.exec(firstLine);
      if (!match) return reject(new Error(`unexpected first line: ${firstLine}`));
      resolve({
        firstLine,
        url: match[1]!,
        token: match[2]!,
        domains: match[3]!.split(","),
        close: async () => {
          // SIGTERM, and SIGKILL only if the mock is stuck; settles on the child's own end.
          const grace = setTimeout(() => child.kill("SIGKILL"), 10_000);
          child.kill("SIGTERM");
          const result = await exited;
          clearTimeout(grace);
          return result;
        },
      });
    });
    void exited.then((result) =>
      reject(new Error(`comments-mock exited with ${result.code} before listening:\n${result.stderr}`)),
    );
  });
}

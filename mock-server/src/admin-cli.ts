#!/usr/bin/env node
// Changes a running mock (npm run mock) from a shell through its /__admin/ routes, e.g. to see a
// newly approved comment in a dev server, or to take the service down after a first good build.
import { parseArgs } from "node:util";
import { DEFAULT_PORT, DEFAULT_TOKEN } from "./defaults.ts";
import { outageModes } from "./runtime-faults.ts";

const usage = `Usage: node mock-server/src/admin-cli.ts [--url U] [--token T] <command>

Changes a running comments mock and prints the result as one line of JSON.

  --url U          the mock's base URL (default http://127.0.0.1:${DEFAULT_PORT})
  --token T        its bearer token (default ${DEFAULT_TOKEN})
Commands:
  add --domain D --path P --name N --content C [--html H] [--status approved|pending]
      [--reply-to ID] [--created-at 2023-11-26T06:30:07.000000Z]
                   add a comment (approved and created now unless told); prints it with its id.
                   A reply (--reply-to) takes its parent's domain and path when they are left out.
  approve ID       approve a pending comment
  outage MODE      every /api/comments request from now on: ${outageModes.join(" | ")}`;

const addOptions = ["domain", "path", "name", "content", "html", "status", "reply-to", "created-at"] as const;

function fail(message: string, exitCode = 2): never {
  process.stderr.write(`${message}\n`);
  process.exit(exitCode);
}

let parsed;
try {
  parsed = parseArgs({
    strict: true,
    allowPositionals: true,
    options: {
      ...Object.fromEntries(["url", "token", ...addOptions].map((name) => [name, { type: "string" as const }])),
      help: { type: "boolean" },
    },
  });
} catch (error) {
  fail(`${(error as Error).message}\n\n${usage}`);
}
const args = parsed.values as Record<string, string | boolean | undefined>;
if (args.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
const str = (name: string) => args[name] as string | undefined;
const [command, argument, ...extra] = parsed.positionals;
const addOptionsGiven = addOptions.filter((name) => args[name] !== undefined);

let route: string;
let body: unknown;
if (command === "add" && argument === undefined) {
  const replyTo = str("reply-to");
  if (replyTo !== undefined && !/^[1-9][0-9]*$/.test(replyTo)) fail(`--reply-to must be a comment id, got "${replyTo}".`);
  route = "comments";
  body = {
    domain: str("domain"),
    path: str("path"),
    name: str("name"),
    content: str("content"),
    html: str("html"),
    status: str("status"),
    replyTo: replyTo === undefined ? undefined : Number(replyTo),
    created_at: str("created-at"),
  };
} else if ((command === "approve" || command === "outage") && argument !== undefined && extra.length === 0 && addOptionsGiven.length === 0) {
  if (command === "approve" && !/^[1-9][0-9]*$/.test(argument)) fail(`approve needs a comment id, got "${argument}".`);
  route = command === "approve" ? `comments/${argument}/approve` : "outage";
  body = command === "outage" ? { mode: argument } : {};
} else {
  fail(`Cannot run "${parsed.positionals.join(" ")}": give one command as shown.\n\n${usage}`);
}

const url = `${(str("url") ?? `http://127.0.0.1:${DEFAULT_PORT}`).replace(/\/+$/, "")}/__admin/${route}`;
let response: Response;
try {
  response = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${str("token") ?? DEFAULT_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
} catch (error) {
  const cause = (error as Error).cause;
  fail(`Cannot reach the mock at ${url}: ${cause instanceof Error ? cause.message : (error as Error).message}. Start it with npm run mock, or pass its --url.`, 1);
}
const text = await response.text();
let answer: unknown;
try {
  answer = JSON.parse(text);
} catch {
  fail(`The mock at ${url} answered ${response.status} with something that is not JSON; is --url the mock's address? ${text.slice(0, 200)}`, 1);
}
if (!response.ok) {
  const hint = response.status === 401 ? " Pass the token the mock was started with (--token)." : "";
  fail(`The mock refused (${response.status}): ${(answer as { message?: string }).message ?? text}${hint}`, 1);
}
process.stdout.write(`${JSON.stringify(answer)}\n`);

// comments-mock admin: changes a running mock from a shell through its /__admin/ routes, e.g. to
// see a newly approved comment in a dev server, or to take the service down after a first good build.
import { parseArgs } from "node:util";
import { DEFAULT_PORT, DEFAULT_TOKEN } from "../defaults.ts";
import { outageModes } from "../runtime-faults.ts";
import { CommandError, UsageError } from "./cli-errors.ts";

const usage = `Usage: comments-mock admin [--url U] [--token T] <command>

Changes a running comments mock and prints the result as one line of JSON.

  --url U          the mock's base URL (default http://127.0.0.1:${DEFAULT_PORT})
  --token T        its bearer token (default ${DEFAULT_TOKEN})
Commands:
  add --domain D --path P --name N --content C [--html H] [--status approved|pending]
      [--reply-to ID] [--created-at 2023-11-26T06:30:07.000000Z]
                   add a comment (approved and created now unless told); prints it with its id.
                   A reply (--reply-to) takes its parent's domain and path when they are left out.
  approve ID       approve a pending comment
  reject ID        reject a comment (marked spam: no longer served)
  delete ID        delete a comment, a top-level one with its replies
  outage MODE      every /api/comments request from now on: ${outageModes.join(" | ")}
  faults [--latency MS] [--error-rate R] [--drop-rate R] [--rate-limit N|off] [--rate-window MS]
                   switch the faults given from the next request on (the others stay)
  sign-in          print a new link that opens the mock's page signed in (it works once)`;

const addOptions = ["domain", "path", "name", "content", "html", "status", "reply-to", "created-at"] as const;
const faultOptions = ["latency", "error-rate", "drop-rate", "rate-limit", "rate-window"] as const;

/** A fault flag's number; the mock checks its range, as it does the page's and the route's. */
function faultNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === "" || !Number.isFinite(Number(value)))
    throw new UsageError(`--${name} must be a number, not "${value}".`);
  return Number(value);
}

function faultsBody(str: (name: string) => string | undefined): Record<string, unknown> {
  const limit = str("rate-limit");
  const window = faultNumber("rate-window", str("rate-window"));
  if (window !== undefined && (limit === undefined || limit === "off"))
    throw new UsageError("--rate-window is the period of --rate-limit N: give both.");
  return {
    latencyMs: faultNumber("latency", str("latency")),
    errorRate: faultNumber("error-rate", str("error-rate")),
    dropRate: faultNumber("drop-rate", str("drop-rate")),
    rateLimit:
      limit === undefined
        ? undefined
        : limit === "off"
          ? null
          : { limit: faultNumber("rate-limit", limit), windowMs: window ?? 60_000 },
  };
}

function request(argv: string[]): { route: string; body: unknown; url: string; token: string } | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        ...Object.fromEntries(
          ["url", "token", ...addOptions, ...faultOptions].map((name) => [name, { type: "string" as const }]),
        ),
        help: { type: "boolean" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const args = parsed.values as Record<string, string | boolean | undefined>;
  if (args.help) return "help";
  const str = (name: string) => args[name] as string | undefined;
  const [command, argument, ...extra] = parsed.positionals;
  const addOptionsGiven = addOptions.filter((name) => args[name] !== undefined);
  const target = {
    url: (str("url") ?? `http://127.0.0.1:${DEFAULT_PORT}`).replace(/\/+$/, ""),
    token: str("token") ?? DEFAULT_TOKEN,
  };

  if (command === "add" && argument === undefined) {
    const replyTo = str("reply-to");
    if (replyTo !== undefined && !/^[1-9][0-9]*$/.test(replyTo))
      throw new UsageError(`--reply-to must be a comment id, not "${replyTo}".`);
    const body = {
      domain: str("domain"),
      path: str("path"),
      name: str("name"),
      content: str("content"),
      html: str("html"),
      status: str("status"),
      replyTo: replyTo === undefined ? undefined : Number(replyTo),
      created_at: str("created-at"),
    };
    return { ...target, route: "comments", body };
  }
  const faultOptionsGiven = faultOptions.filter((name) => args[name] !== undefined);
  if (command === "faults" && argument === undefined && addOptionsGiven.length === 0) {
    if (faultOptionsGiven.length === 0)
      throw new UsageError(`faults needs at least one of ${faultOptions.map((name) => `--${name}`).join(", ")}.`);
    return { ...target, route: "faults", body: faultsBody(str) };
  }
  if (faultOptionsGiven.length > 0 || (addOptionsGiven.length > 0 && command !== "add"))
    throw new UsageError(
      `Cannot run "admin ${parsed.positionals.join(" ")}" with --${[...faultOptionsGiven, ...addOptionsGiven][0]}: give one command as shown.\n\n${usage}`,
    );
  if (command === "sign-in" && argument === undefined) return { ...target, route: "sign-in", body: {} };
  const moderation = ["approve", "reject", "delete"].includes(command ?? "");
  if ((moderation || command === "outage") && argument !== undefined && extra.length === 0) {
    if (moderation && !/^[1-9][0-9]*$/.test(argument))
      throw new UsageError(`${command} needs a comment id, not "${argument}".`);
    return moderation
      ? { ...target, route: `comments/${argument}/${command}`, body: {} }
      : { ...target, route: "outage", body: { mode: argument } };
  }
  throw new UsageError(`Cannot run "admin ${parsed.positionals.join(" ")}": give one command as shown.\n\n${usage}`);
}

/** Sends one change and prints the mock's answer as one line of JSON. */
export async function main(argv: string[]): Promise<number> {
  const change = request(argv);
  if (change === "help") {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const url = `${change.url}/__admin/${change.route}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${change.token}`, "content-type": "application/json" },
      body: JSON.stringify(change.body),
    });
  } catch (error) {
    const cause = (error as Error).cause;
    throw new CommandError(
      `Cannot reach the mock at ${url}: ${cause instanceof Error ? cause.message : (error as Error).message}. Start it with comments-mock, or pass its --url.`,
      1,
    );
  }
  const text = await response.text();
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw new CommandError(
      `The mock at ${url} answered ${response.status} with something that is not JSON; is --url the mock's address? ${text.slice(0, 200)}`,
      1,
    );
  }
  if (!response.ok) {
    const hint = response.status === 401 ? " Pass the token the mock was started with (--token)." : "";
    throw new CommandError(
      `The mock refused (${response.status}): ${(answer as { message?: string }).message ?? text}${hint}`,
      1,
    );
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
  return 0;
}

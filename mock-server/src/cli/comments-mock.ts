#!/usr/bin/env node
// comments-mock: serves the mock (the default), or records a site's comments from the real
// service, verifies the service against the contract, or changes a running mock. Each command is
// loaded on demand, so `admin` and `record` start without loading Prism.
import { CommandError, UsageError } from "./cli-errors.ts";

interface Command {
  /** Runs the command; resolves to its exit code, or undefined while it keeps serving. */
  main(args: string[]): Promise<number | undefined>;
}

const commands: Record<string, () => Promise<Command>> = {
  record: () => import("./record.ts"),
  verify: () => import("./verify.ts"),
  admin: () => import("./admin.ts"),
};

const [name = "", ...rest] = process.argv.slice(2);
const named = Object.hasOwn(commands, name);
try {
  const command = await (named ? commands[name]!() : import("./serve.ts"));
  const exitCode = await command.main(named ? rest : process.argv.slice(2));
  if (exitCode !== undefined) process.exitCode = exitCode;
} catch (error) {
  if (!(error instanceof CommandError)) throw error;
  const help =
    error instanceof UsageError ? `\nRun comments-mock ${named ? `${name} ` : ""}--help for the options.` : "";
  process.stderr.write(`comments-mock: ${error.message}${help}\n`);
  process.exitCode = error.exitCode;
}

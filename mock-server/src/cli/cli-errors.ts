// How a command stops: its message (one line: what, where, what to do) on stderr, no stack, as a
// person at a terminal or a CI log wants it, and an exit code a script can tell apart.

/** The command cannot go on; the message says why and what to do. */
export class CommandError extends Error {
  override name = "CommandError";
  /** 2: the command was given something it cannot use; 1: what it talks to failed or refused. */
  readonly exitCode: 1 | 2;
  constructor(message: string, exitCode: 1 | 2 = 2) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** Options or arguments the command does not take; the message is followed by a pointer to --help. */
export class UsageError extends CommandError {
  override name = "UsageError";
}

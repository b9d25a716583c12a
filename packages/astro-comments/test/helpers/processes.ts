// Ending a child process a test started, however loaded the machine: SIGTERM, a grace period to
// end on its own, then SIGKILL, and the promise settles on its `exit` event, never on a timer.
import type { ChildProcess } from "node:child_process";

/** How long a child gets to end after SIGTERM before SIGKILL: generous, since only a stuck child waits it out. */
export const STOP_GRACE_MS = 10_000;

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const grace = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
  await exited;
  clearTimeout(grace);
}

// Temporary files a write leaves beside its target (`<name>.<pid>.tmp`, `<name>.<pid>.<n>.tmp`)
// when it is killed or its disk fills: they are never read, so the next run removes them. One that
// belongs to a process still running on this machine may be a write under way (`astro dev` beside
// `astro build`, a check beside a build) and stays, unless it is over an hour old: a cache restored
// on another machine may name a pid that happens to be running here.

import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";

const TEMPORARY = /\.(\d+)(?:\.\d+)?\.tmp$/;
const ABANDONED_AFTER_MS = 3_600_000;

function running(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether `name` is a temporary file of a write (the pid it names, or undefined). */
function temporaryOwner(name: string): number | undefined {
  const pid = TEMPORARY.exec(name)?.[1];
  return pid === undefined ? undefined : Number(pid);
}

/** Removes the temporary files in `dir` (not below it) whose writer is gone or that are over an hour old. Never throws. */
export async function pruneLeftoverTemps(dir: string, now = Date.now()): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const pid = temporaryOwner(name);
      if (pid === undefined) return;
      const file = join(dir, name);
      const old = await stat(file).then(
        (found) => found.mtimeMs < now - ABANDONED_AFTER_MS,
        () => false,
      );
      if (old || !running(pid)) await rm(file, { force: true }).catch(() => undefined);
    }),
  );
}

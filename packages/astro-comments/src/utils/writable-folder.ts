// Whether this process can write a folder, found before a build writes anything there: creating
// (and removing) an empty file is what a read-only mount or a folder of another user refuses.
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** The error code (EROFS, EACCES, EPERM…) that refuses writing in `dir`, creating it if needed; undefined when it can be written. */
export async function cannotWrite(dir: string): Promise<string | undefined> {
  // Named like a write's temporary file, so a process killed between the two calls leaves nothing for long.
  const probe = join(dir, `write-probe.${process.pid}.tmp`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(probe, "");
    await rm(probe, { force: true });
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? "an error";
  }
}

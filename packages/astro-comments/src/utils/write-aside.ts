// Files a build reads back (the comment modules, the last good fetch) are written aside and renamed
// into place: a file under its final name is always complete, also when a build is interrupted.
import { randomInt } from "node:crypto";
import { rename, rm, stat } from "node:fs/promises";

/**
 * Writes `file` through `write`, which fills a temporary file beside it, then renames that into
 * place. A folder where the file belongs (a damaged cache) makes way; any other failure leaves
 * the file as it was and removes the temporary one. Two writes of one file at once each have a
 * temporary file of their own, and the last rename wins: a dev server's refresh while its last
 * save is under way, or two CI containers on one cache volume whose Node got the same pid.
 */
export async function writeAside(file: string, write: (temporary: string) => Promise<void>): Promise<void> {
  // `<name>.<pid>.<n>.tmp`, which leftover-temps.ts prunes once its writer is gone.
  const temporary = `${file}.${process.pid}.${randomInt(2 ** 32)}.tmp`;
  try {
    await write(temporary);
    await rename(temporary, file).catch(async (error: unknown) => {
      const folder = await stat(file).then(
        (found) => found.isDirectory(),
        () => false,
      );
      if (!folder) throw error;
      await rm(file, { recursive: true, force: true });
      await rename(temporary, file);
    });
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

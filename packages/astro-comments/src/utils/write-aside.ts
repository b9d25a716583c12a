// Files a build reads back (the comment modules, the last good fetch) are written aside and renamed
// into place: a file under its final name is always complete, also when a build is interrupted.
import { rename, rm, stat } from "node:fs/promises";

/**
 * Writes `file` through `write`, which fills a temporary file beside it, then renames that into
 * place. A folder where the file belongs (a damaged cache) makes way; any other failure leaves
 * the file as it was and removes the temporary one.
 */
export async function writeAside(file: string, write: (temporary: string) => Promise<void>): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
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

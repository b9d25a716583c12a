// Whether this process can write a folder, found before a build writes anything there: creating
// (and removing) an empty file is what a read-only mount or a folder of another user refuses.
import { access, mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

const code = (error: unknown) => (error as NodeJS.ErrnoException).code ?? "an error";

/** Why `dir` (and the folders above it that are missing) cannot be created; undefined when it can. */
async function cannotCreate(dir: string): Promise<string | undefined> {
  try {
    await mkdir(dir, { recursive: true });
    return undefined;
  } catch (error) {
    // A recursive mkdir says ENOENT where the real reason is a read-only or foreign parent: the
    // first missing folder's own mkdir says which.
    let missing = dir;
    const absent = (path: string) =>
      access(path).then(
        () => false,
        (reason: unknown) => code(reason) === "ENOENT",
      );
    while (dirname(missing) !== missing && (await absent(dirname(missing)))) missing = dirname(missing);
    return mkdir(missing).then(
      () => code(error),
      (reason: unknown) => code(reason),
    );
  }
}

/** The error code (EROFS, EACCES, EPERM…) that refuses writing in `dir`, creating it if needed; undefined when it can be written. */
export async function cannotWrite(dir: string): Promise<string | undefined> {
  const refused = await cannotCreate(dir);
  if (refused !== undefined) return refused;
  // Named like a write's temporary file, so a process killed between the two calls leaves nothing for long.
  const probe = join(dir, `write-probe.${process.pid}.tmp`);
  try {
    await writeFile(probe, "");
    await rm(probe, { force: true });
    return undefined;
  } catch (error) {
    return code(error);
  }
}

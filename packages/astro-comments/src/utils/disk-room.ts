// How much this process may still write on the disk that holds a folder: what a write the package
// does not make itself (Astro's data store, saved right after the sync) will find.
import { statfs } from "node:fs/promises";

/** Bytes free to this user on the disk of `dir`; undefined when the system cannot say. */
export async function diskRoom(dir: string): Promise<number | undefined> {
  try {
    const { bavail, bsize } = await statfs(dir);
    return bavail * bsize;
  } catch {
    return undefined;
  }
}

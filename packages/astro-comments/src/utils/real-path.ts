// A path as Vite sees it: Vite resolves a module's imports from the module's real path, so a path
// that becomes an import is computed between real paths, also for a folder reached through a
// symlink (a CI cache mounted at node_modules/.astro) or not created yet.
import { realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** `path` with every symlink in it resolved; the part that does not exist yet is kept as written. */
export function realPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realPath(parent), basename(path));
  }
}

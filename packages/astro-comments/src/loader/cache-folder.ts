// The cache folder as a build finds it, before and after the sync writes there: leftovers of
// killed writes removed, a folder the build cannot write found before anything is written, and too
// little room for Astro's data store said before Astro fails without saying where.
import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { diskRoom } from "../utils/disk-room.ts";
import { pruneLeftoverTemps } from "../utils/leftover-temps.ts";
import { cannotWrite } from "../utils/writable-folder.ts";
import type { StoredEntry } from "./last-good.ts";

/**
 * Removes what killed or failed writes left in `dirs`, and (when `probe`) resolves to the first
 * folder this process cannot write, with the error code. A failed fetch may need to write nothing
 * (the last good comments are intact), so the caller decides whether a refusal stops it. Only a
 * build probes: `astro dev` syncs on every refresh, and a probe file coming and going in a watched
 * cacheDir would be noise there.
 */
export async function prepareCacheFolder(
  dirs: readonly string[],
  probe: boolean,
): Promise<{ dir: string; code: string } | undefined> {
  const found = await Promise.all(
    dirs.map(async (dir) => {
      await pruneLeftoverTemps(dir);
      const code = probe ? await cannotWrite(dir) : undefined;
      return code === undefined ? undefined : { dir, code };
    }),
  );
  return found.find((refusal) => refusal !== undefined);
}

const kib = (bytes: number) => `${Math.ceil(bytes / 1024).toLocaleString("en-US")} KiB`;

/**
 * Astro saves its data store in the cacheDir right after a build's sync, and on a full disk fails
 * with an UnknownFilesystemError that does not say which disk: this line, logged first, does. The
 * store Astro saved last time (or, on a first build, the entries) is the size to expect.
 */
export async function storeRoomWarning(cacheDirUrl: URL, entries: readonly StoredEntry[]): Promise<string | undefined> {
  const cacheDir = resolve(fileURLToPath(cacheDirUrl));
  const room = await diskRoom(cacheDir);
  if (room === undefined) return undefined;
  const saved = await stat(join(cacheDir, "data-store.json")).then(
    (found) => found.size,
    () => 0,
  );
  const needed = Math.max(
    saved,
    entries.reduce((sum, entry) => sum + JSON.stringify(entry).length, 0),
  );
  if (room >= needed) return undefined;
  return `the disk holding the cache folder ${cacheDir} has ${kib(room)} free, less than Astro's data store needs there (about ${kib(needed)}); if Astro now fails with UnknownFilesystemError (ENOSPC), that is why: free space on that disk, or set cacheDir in astro.config to a folder on one with room`;
}

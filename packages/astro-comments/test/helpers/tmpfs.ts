// Real small disks for the cache-folder tests: a tmpfs mounted in a temporary folder, filled to
// leave a given number of bytes, remounted read-only. Mounting needs root (or CAP_SYS_ADMIN);
// where it is refused, `canMount` says so and the tests that need it are skipped.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const mount = (args: readonly string[]) => execFileSync("mount", args, { stdio: "pipe" });

export interface Tmpfs {
  dir: string;
  /** Writes one file that leaves `bytes` free on the disk (rounded down to its block size). */
  fill(bytes: number): void;
  /** Removes what `fill` wrote. */
  unfill(): void;
  readOnly(on: boolean): void;
  unmount(): void;
}

/** A tmpfs of `size` bytes in a new folder in `parent` (one every user can reach, for tests that build as another user). */
export function mountTmpfs(size: number, parent = tmpdir()): Tmpfs {
  const dir = mkdtempSync(join(parent, "ac-tmpfs-"));
  mount(["-t", "tmpfs", "-o", `size=${size},mode=0755`, "tmpfs", dir]);
  const filler = join(dir, "filler");
  return {
    dir,
    fill(bytes) {
      const { bavail, bsize } = statfsSync(dir);
      writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - bytes)));
    },
    unfill: () => rmSync(filler, { force: true }),
    readOnly: (on) => mount(["-o", `remount,${on ? "ro" : "rw"}`, dir]),
    unmount() {
      execFileSync("umount", [dir], { stdio: "pipe" });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Why a test that mounts cannot run here, or undefined when it can. */
export const cannotMount: string | undefined = (() => {
  if (process.getuid?.() !== 0) return "mounting a tmpfs needs root";
  try {
    mountTmpfs(1_048_576).unmount();
    return undefined;
  } catch (error) {
    return `mount -t tmpfs was refused (${(error as Error).message.split("\n")[0]})`;
  }
})();

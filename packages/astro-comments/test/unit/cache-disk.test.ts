// The small pieces every write into the cache folder relies on, on real files: leftover temporary
// files pruned by owner and age, real paths through a symlink, and the writability probe on a real
// read-only mount (skipped, with its reason, where the test cannot mount).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pruneLeftoverTemps } from "../../src/utils/leftover-temps.ts";
import { realPath } from "../../src/utils/real-path.ts";
import { cannotWrite } from "../../src/utils/writable-folder.ts";
import { cannotMount, mountTmpfs } from "../helpers/tmpfs.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ac-disk-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The pid of a process that has ended. */
const endedPid = () => spawnSync(process.execPath, ["-e", ""]).pid!;

describe("leftover temporary files", () => {
  it("removes those of a process that has ended, keeps those of one still running, and leaves other files alone", async () => {
    const ended = endedPid();
    const names = [
      `last-good.jsonl.${ended}.tmp`,
      `check-crawl.jsonl.${ended}.3.tmp`,
      `last-good.jsonl.${process.pid}.tmp`,
      `check-crawl.jsonl.${process.ppid}.1.tmp`,
      "last-good.jsonl",
      "notes.tmp",
    ];
    for (const name of names) writeFileSync(join(dir, name), "x");
    await pruneLeftoverTemps(dir);
    expect(readdirSync(dir).sort()).toEqual(
      [
        `last-good.jsonl.${process.pid}.tmp`,
        `check-crawl.jsonl.${process.ppid}.1.tmp`,
        "last-good.jsonl",
        "notes.tmp",
      ].sort(),
    );
  });

  it("removes one over an hour old even when its pid runs (a cache restored from another machine)", async () => {
    const file = join(dir, `comments-1-abc.mjs.${process.ppid}.tmp`);
    writeFileSync(file, "x");
    const twoHoursAgo = new Date(Date.now() - 7_200_000);
    utimesSync(file, twoHoursAgo, twoHoursAgo);
    await pruneLeftoverTemps(dir);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("does nothing, and does not throw, for a folder that is not there", async () => {
    await expect(pruneLeftoverTemps(join(dir, "missing"))).resolves.toBeUndefined();
  });
});

describe("real paths", () => {
  it("resolves a symlink in the path, and keeps the part not created yet", () => {
    const target = join(dir, "other-disk");
    mkdirSync(target);
    symlinkSync(target, join(dir, "cache"));
    expect(realPath(join(dir, "cache", "astro-comments", "modules"))).toBe(
      join(realPath(target), "astro-comments", "modules"),
    );
  });
});

describe.skipIf(cannotMount !== undefined)("the writability probe on a real mount", () => {
  it("says EROFS for a read-only mount, nothing once it is writable again, and leaves no file", async () => {
    const disk = mountTmpfs(1_048_576);
    try {
      mkdirSync(join(disk.dir, "cache"));
      disk.readOnly(true);
      expect(await cannotWrite(join(disk.dir, "cache"))).toBe("EROFS");
      expect(await cannotWrite(join(disk.dir, "cache", "not-yet"))).toBe("EROFS");
      disk.readOnly(false);
      expect(await cannotWrite(join(disk.dir, "cache", "not-yet"))).toBeUndefined();
      expect(readdirSync(join(disk.dir, "cache", "not-yet"))).toEqual([]);
    } finally {
      disk.unmount();
    }
  });
});

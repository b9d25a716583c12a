// Vitest's global setup: one temporary folder for the whole run, which every test file and every
// process a test starts (builds, installs, Chromium) takes as the system's temporary folder, and
// which goes when the run ends, whatever a test left there. A run leaves nothing in the system's
// temporary folder, also when a test fails before its own clean-up.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), "astro-comments-run-"));
  const before = { TMPDIR: process.env.TMPDIR, TMP: process.env.TMP, TEMP: process.env.TEMP };
  // os.tmpdir() reads TMPDIR on POSIX and TMP or TEMP on Windows; the workers inherit this environment.
  for (const key of Object.keys(before)) process.env[key] = dir;
  return () => {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  };
}

// Running the Astro CLI on the example site as a user does: a child process per command, logs
// captured as plain text.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const exampleSite = fileURLToPath(new URL("../../../../examples/site/", import.meta.url));
export const astroBin = join(createRequire(import.meta.url).resolve("astro/package.json"), "..", "bin", "astro.mjs");

/**
 * What one `astro build` of a test site may take before the test counts as hung: such a build
 * takes 10–30 s on a quiet 2-core machine, and a CI runner shared with other jobs may be ten times
 * slower. Only a hung build reaches it. Tests and hooks that build give it per build.
 */
export const BUILD_TIMEOUT_MS = 300_000;

/** Astro colours and underlines parts of its log even without a TTY; tests compare plain text. */
export const plainText = (log: string) => log.replace(/\x1b\[[0-9;]*m/g, "");

/**
 * `astro build` of a site (the example site by default) into `out` (a fresh temporary folder by
 * default); `runAs`, a command that runs it as another user (e.g. setpriv and its flags).
 */
export function astroBuild(
  env: Record<string, string>,
  out = join(mkdtempSync(join(tmpdir(), "ac-build-")), "dist"),
  site = exampleSite,
  runAs: readonly string[] = [],
): Promise<{ code: number; log: string; out: string }> {
  const command = [...runAs, process.execPath, astroBin, "build", "--outDir", out];
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), {
      cwd: site,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1", NO_COLOR: "1", ...env },
    });
    let log = "";
    child.stdout.on("data", (chunk: Buffer) => (log += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (log += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code: code ?? 1, log: plainText(log), out }));
  });
}

/** Every file below `dir`, as absolute paths. */
export function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

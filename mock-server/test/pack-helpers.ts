// The mock as a site gets it: its tarball (and the schema's) packed from sources the way npm
// publishes them, for the one test of the tarball path, and the long-running commands a site's developer and CI start from them (the
// mock, `astro dev`, shell scripts that leave a mock in the background), each in a process group
// of its own so that nothing outlives the test.
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { npm, siteEnv, type PackedPackage } from "../../packages/astro-comments/test/helpers/pack-sites.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/**
 * `npm pack` of a workspace (schema or mock-server) as a fresh clone has it: sources only, so its
 * prepack must build everything that ships. The mock's build also reads astro-comments' client
 * (packages/astro-comments/src/api, with what it imports: the error catalogue, utils, the .env
 * reader), which it bundles, so the package's src/ is copied beside it: esbuild takes what is imported.
 */
export async function packWorkspace(work: string, workspace: "schema" | "mock-server"): Promise<PackedPackage> {
  const source = join(work, "source");
  const skip = (path: string) => /[\\/](node_modules|dist|test)$|\.tsbuildinfo$/.test(path);
  cpSync(join(repoRoot, workspace), join(source, workspace), { recursive: true, filter: (path) => !skip(path) });
  if (workspace === "mock-server") {
    cpSync(join(repoRoot, "packages/astro-comments/src"), join(source, "packages/astro-comments/src"), {
      recursive: true,
    });
  }
  cpSync(join(repoRoot, "tsconfig.base.json"), join(source, "tsconfig.base.json"));
  try {
    symlinkSync(join(repoRoot, "node_modules"), join(source, "node_modules"), "junction");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const out = join(work, "tarballs");
  mkdirSync(out, { recursive: true });
  const result = await npm(["pack", "--json", "--pack-destination", out], join(source, workspace));
  if (result.code !== 0) throw new Error(`npm pack of ${workspace} failed (exit ${result.code}):\n${result.output}`);
  // The prepack build may print before npm's JSON report.
  const [packed] = JSON.parse(result.stdout.slice(result.stdout.search(/^\[/m))) as Array<{
    filename: string;
    integrity: string;
    files: Array<{ path: string }>;
  }>;
  return {
    tarball: join(out, packed!.filename),
    files: packed!.files.map((file) => file.path).sort(),
    integrity: packed!.integrity,
  };
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Started {
  /** Everything printed so far, stdout and stderr interleaved. */
  output(): string;
  stdout(): string;
  /** Resolves with the first match of `pattern` in the output; rejects if the process ends first or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Resolves with the exit code once the process itself has ended (children it left behind may live on). */
  exited: Promise<number>;
  /** Resolves once its output is complete: it and everything it left behind that shares its output have ended. */
  closed: Promise<void>;
  /** Ends the process and everything it started (its process group): SIGTERM, then SIGKILL. */
  stop(): Promise<void>;
}

/** Starts `command` in `cwd` in a process group of its own. POSIX only, like the CI this guide shows. */
export function start(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Started {
  const child = spawn(command, args, { cwd, env: siteEnv(env), detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  let stdout = "";
  const listeners = new Set<() => void>();
  const heard = () => listeners.forEach((listener) => listener());
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    stdout += chunk.toString();
    heard();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    heard();
  });
  // "exit", not "close": a process a shell script starts in the background keeps the pipes open.
  const exited = new Promise<number>((resolve) => child.once("exit", (code) => resolve(code ?? 1)));
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  let ended = false;
  void closed.then(() => {
    ended = true;
    heard();
  });
  const group = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
      return true;
    } catch {
      return false; // the group is gone
    }
  };
  return {
    output: () => output,
    stdout: () => stdout,
    exited,
    closed,
    waitFor(pattern, timeoutMs = 120_000) {
      return new Promise((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        const check = () => {
          const match = pattern.exec(output);
          if (match) {
            done();
            resolve(match);
          } else if (ended) {
            done();
            reject(new Error(`${command} ${args.join(" ")} ended before printing ${pattern}:\n${output}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(
            new Error(`${command} ${args.join(" ")} did not print ${pattern} within ${timeoutMs / 1000} s:\n${output}`),
          );
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    async stop() {
      if (group("SIGTERM")) {
        // A grace period to end on their own (a mock closes its server), then whatever is left of
        // the group, e.g. a mock a shell script left in the background.
        await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
        group("SIGKILL");
      }
      await closed;
    },
  };
}

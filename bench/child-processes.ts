// Child processes for the benchmarks: the mock (serving and measuring then get a core each) and
// anything else a benchmark spawns. Every child is tracked so that none outlives the benchmark,
// whether it ends normally, throws, or is interrupted.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const live = new Set<ChildProcess>();
let hooked = false;

/** Kills every tracked child still running. Synchronous, so it also works in an "exit" handler. */
function killLive(): void {
  for (const child of live) child.kill("SIGKILL");
}

/** Registers a child so it is killed if this process exits, throws or is interrupted before it ends. */
export function trackChild<T extends ChildProcess>(child: T): T {
  if (!hooked) {
    hooked = true;
    process.once("exit", killLive);
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      process.once(signal, () => {
        killLive();
        process.exit(130);
      });
    }
  }
  live.add(child);
  child.once("exit", () => live.delete(child));
  return child;
}

/** Ends a child: SIGTERM, then SIGKILL if it has not exited after `graceMs`. Resolves once it is gone. */
function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

export interface MockProcess {
  url: string;
  child: ChildProcess;
  /** Stops the mock and waits until it has exited. */
  close(): Promise<void>;
}

/** Starts `mock-server/src/cli/comments-mock.ts --port 0 …args` and resolves once it prints its URL. */
export function startMockProcess(args: string[], startupTimeoutMs = 120_000): Promise<MockProcess> {
  const child = trackChild(
    spawn(process.execPath, ["mock-server/src/cli/comments-mock.ts", "--port", "0", ...args], {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => void stopChild(child).then(() => reject(error));
    const timer = setTimeout(
      () => fail(new Error(`the mock did not start within ${startupTimeoutMs / 1000} s`)),
      startupTimeoutMs,
    );
    let out = "";
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        // Keep draining its stdout (it prints nothing more, but a full pipe would block it).
        child.stdout!.off("data", onData).resume();
        resolve({ url: match[1]!, child, close: () => stopChild(child) });
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the mock exited with ${signal ?? code} before it listened:\n${out}`));
    });
  });
}

// scripts/busy-loops.sh (npm run test:busy): the oversubscribed machine of issue 35, on demand. Its
// busy loops must never outlive it: not when the command fails, not on Ctrl-C.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../../../scripts/busy-loops.sh", import.meta.url));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The loops' PIDs, from the line the script prints on stderr. */
const loopPids = (stderr: string) =>
  (/^busy-loops: \d+ busy loops \(PIDs ([\d ]+)\)/m.exec(stderr)?.[1] ?? "").split(" ").filter(Boolean).map(Number);

describe("scripts/busy-loops.sh", () => {
  it("runs the command beside N busy loops, passes its exit code on, and kills the loops", async () => {
    const child = spawn("bash", [script, "3", "bash", "-c", "echo ran; exit 3"], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    const pids = loopPids(err);
    expect(code).toBe(3);
    expect(out).toBe("ran\n");
    expect(pids).toHaveLength(3);
    expect(pids.filter(alive)).toEqual([]);
  });

  it("kills the loops on Ctrl-C (SIGINT to its process group) while the command runs", async () => {
    // The command says it runs, then waits on a pipe nobody writes to, until the interrupt ends it.
    const child = spawn("bash", [script, "2", "bash", "-c", "echo running >&2; read -r _ < <(tail -f /dev/null)"], {
      detached: true,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    const running = new Promise<void>((resolve) =>
      child.stderr.on("data", (chunk: Buffer) => {
        err += chunk.toString();
        if (err.includes("running\n")) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    await running;
    const pids = loopPids(err);
    expect(pids).toHaveLength(2);
    expect(pids.every(alive)).toBe(true);
    process.kill(-child.pid!, "SIGINT");
    expect(await exited).not.toBe(0);
    expect(pids.filter(alive)).toEqual([]);
  });
});

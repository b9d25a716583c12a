// The mock in a child process, for benchmarks: serving and measuring then get a core each.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Starts `mock-server/src/cli.ts --port 0 …args` and resolves once it prints its URL. */
export function startMockProcess(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn("node", ["mock-server/src/cli.ts", "--port", "0", ...args], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ url: match[1]!, child });
    });
    child.once("exit", (code) => reject(new Error(`mock exited with ${code}`)));
  });
}

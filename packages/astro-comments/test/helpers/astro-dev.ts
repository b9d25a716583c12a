// `astro dev` of a site in a child process, as a user runs it, on a free port of 127.0.0.1.
import { spawn } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import { astroBin, plainText } from "./astro-cli.ts";
import { stopChild } from "./processes.ts";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

// Without vitest's own variables (NODE_ENV=test, VITEST*): under them Astro's dev server answers
// every page with "Cannot GET".
function withoutVitestEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(VITEST|TEST$|NODE_ENV$)/.test(name)));
}

export interface DevServer {
  url: string;
  /** Everything the server printed so far, without colours. */
  log(): string;
  /** Resolves when the log matches, rejects if the server exits first. */
  waitFor(pattern: RegExp): Promise<void>;
  stop(): Promise<void>;
}

export async function astroDev(site: string, env: Record<string, string>): Promise<DevServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [astroBin, "dev", "--host", "127.0.0.1", "--port", String(port)], {
    cwd: site,
    env: { ...withoutVitestEnv(), NODE_ENV: "development", ASTRO_TELEMETRY_DISABLED: "1", NO_COLOR: "1", ...env },
  });
  let log = "";
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    log += chunk.toString();
    for (const check of waiters) check();
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const server: DevServer = {
    url: `http://127.0.0.1:${port}`,
    log: () => plainText(log),
    waitFor: (pattern) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pattern.test(plainText(log))) {
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
        exited.then(() => {
          waiters.delete(check);
          reject(new Error(`astro dev exited before printing ${pattern}:\n${plainText(log)}`));
        });
        check();
      }),
    stop: () => stopChild(child),
  };
  await server.waitFor(/ready in/);
  return server;
}

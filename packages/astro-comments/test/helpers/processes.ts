// Ending a child process a test started, however loaded the machine: SIGTERM, a grace period to
// end on its own, then SIGKILL, and the promise settles on its `exit` event, never on a timer.
import { spawn, type ChildProcess } from "node:child_process";
import { astroBin, plainText } from "./astro-cli.ts";

/** How long a child gets to end after SIGTERM before SIGKILL: generous, since only a stuck child waits it out. */
const STOP_GRACE_MS = 10_000;

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const grace = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
  await exited;
  clearTimeout(grace);
}

/** A built site's server (the Node adapter's standalone entry), listening on 127.0.0.1. */
export interface NodeServer {
  url: string;
  /** Everything it printed so far. */
  log(): string;
  close(): Promise<void>;
}

/**
 * Starts `node <entry>` on a port the system picks (PORT=0) and resolves with the URL the adapter
 * prints once it listens: a real signal, and no free-port probe that another process could race.
 * Rejects, with what it printed, if it exits first.
 */
export function startNodeServer(
  entry: string,
  env: Record<string, string | undefined>,
  cwd?: string,
): Promise<NodeServer> {
  const child = spawn(process.execPath, [entry], {
    cwd,
    env: { ...env, HOST: "127.0.0.1", PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      const url = /Server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(plainText(log))?.[1];
      if (url !== undefined) resolve({ url, log: () => plainText(log), close: () => stopChild(child) });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("error", reject);
    child.once("exit", (code) =>
      reject(new Error(`the server ${entry} exited (${code}) before listening:\n${plainText(log)}`)),
    );
  });
}

/**
 * `astro preview` of a built site, on a port the system picks: with @astrojs/cloudflare it runs the
 * Worker in workerd. Resolves with the URL it prints once it listens; rejects, with what it
 * printed, if it exits first.
 */
export function startAstroPreview(site: string, env: Record<string, string | undefined>): Promise<NodeServer> {
  const child = spawn(process.execPath, [astroBin, "preview", "--host", "127.0.0.1", "--port", "0"], {
    cwd: site,
    env: { ...env, ASTRO_TELEMETRY_DISABLED: "1", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      const url = /Local\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(plainText(log))?.[1];
      if (url !== undefined) resolve({ url, log: () => plainText(log), close: () => stopChild(child) });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("error", reject);
    child.once("exit", (code) =>
      reject(new Error(`astro preview exited (${code}) before listening:\n${plainText(log)}`)),
    );
  });
}

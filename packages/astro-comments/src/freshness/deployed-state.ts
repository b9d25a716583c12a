// The state the deployed build published, from its URL (the live site) or a file (a kept copy of
// an earlier build's dist/). Whatever goes wrong becomes a StateUnusable with a one-line reason:
// without the deployed state no check can prove a build useless.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { fetch } from "undici";
import type { FreshnessState } from "./freshness-state.ts";
import {
  StateDownloadBroken,
  StateFileMissing,
  StateFileUnreadable,
  StateHttpError,
  StateNotFound,
  StateTooLarge,
  StateUnreachable,
  StateUrlInvalid,
} from "../errors-data.ts";
import { parseState, StateUnusable } from "./compare-states.ts";

// A state holds about 100 bytes a page; this is far beyond any site, and bounds a wrong URL's answer.
const MAX_STATE_BYTES = 64 * 1024 * 1024;

/** A URL as it may be printed: without user and password. */
function printable(url: URL): string {
  const copy = new URL(url);
  copy.username = "";
  copy.password = "";
  return copy.href;
}

async function fetchText(url: URL, timeoutMs: number): Promise<string> {
  const where = printable(url);
  let response;
  try {
    // no-cache: a CDN in front of the site must not answer with a state older than the deploy.
    response = await fetch(url, {
      headers: { accept: "application/json", "cache-control": "no-cache" },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const failure =
      (error as Error).name === "TimeoutError"
        ? { timedOutAfterMs: timeoutMs }
        : { reason: cause?.code ?? cause?.message ?? (error as Error).message };
    throw new StateUnusable(StateUnreachable.message(where, failure));
  }
  if (response.status === 404) {
    await response.body?.cancel();
    throw new StateUnusable(StateNotFound.message(where));
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new StateUnusable(StateHttpError.message(where, response.status));
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength;
      if (size > MAX_STATE_BYTES) throw new StateUnusable(StateTooLarge.message(where, MAX_STATE_BYTES));
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof StateUnusable) throw error;
    const failure =
      (error as Error).name === "TimeoutError" ? { timedOutAfterMs: timeoutMs } : { reason: (error as Error).message };
    throw new StateUnusable(StateDownloadBroken.message(where, failure));
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new StateUnusable(
      code === "ENOENT"
        ? StateFileMissing.message(path)
        : StateFileUnreadable.message(path, code ?? (error as Error).message),
    );
  }
}

/**
 * The deployed state at `location`: an http(s) URL, or a file path (relative to `cwd`). Throws
 * StateUnusable with a one-line reason when it cannot be had or read.
 */
export async function readDeployedState(
  location: string,
  cwd: string,
  timeoutMs: number,
): Promise<{ state: FreshnessState; where: string }> {
  if (/^https?:\/\//i.test(location)) {
    let url: URL;
    try {
      url = new URL(location);
    } catch {
      throw new StateUnusable(StateUrlInvalid.message(location));
    }
    return { state: parseState(await fetchText(url, timeoutMs), printable(url)), where: printable(url) };
  }
  const path = resolve(cwd, location);
  return { state: parseState(await readText(path), path), where: path };
}

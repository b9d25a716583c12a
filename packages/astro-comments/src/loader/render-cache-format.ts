// The render cache's keys and files (the I/O is render-cache.ts). A body's entry is found by a
// digest of everything that decides its HTML: the renderer's version and the body as served. A
// pack file holds the entries of the pages of one shard, one line each, and every line carries
// its own seal, so a damaged or foreign line is found and rendered again, never shown, while the
// rest of its file is still used. Pure: no I/O.
import { hash } from "node:crypto";
import type { RenderedBody } from "../render/render-body.ts";
import { integrityDigest } from "../utils/integrity-digest.ts";

/** Part of every key: a change of the line format below makes every earlier entry a miss. */
const PACK_FORMAT = "1";

/**
 * A body's key: 32 hex digits of SHA-256 over the renderer's version, the HTML and the content.
 * The content counts because a body that sanitizes to nothing falls back to it.
 */
export function renderKey(rendererVersion: string, html: string, content: string): string {
  // One string hashed at once: the bytes (and so the keys) of the earlier chain of updates, in
  // about half the time for bodies of a few hundred bytes.
  return hash(
    "sha256",
    `${PACK_FORMAT}\u0000${rendererVersion}\u0000${html.length}\u0000${html}\u0000${content}`,
    "hex",
  ).slice(0, 32);
}

const KEY = /^[0-9a-f]{32}$/;

const isRenderedBody = (value: unknown): value is RenderedBody =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as RenderedBody).html === "string" &&
  Array.isArray((value as RenderedBody).unknownLanguages) &&
  (value as RenderedBody).unknownLanguages.every((language) => typeof language === "string");

/**
 * A pack's lines, one per entry, `key seal json` (the seal over key and JSON), without their line
 * breaks. Lines past `maxBytes` (breaks counted) are left out (they are rendered again when next
 * needed), so no pack grows unbounded. Made one at a time, so a pack is written without ever being
 * held whole: as lines, one string and its bytes at once, a full pack (16 MiB) was written while
 * page generation began, on top of a 200,000-reply thread's parse.
 */
export function* packLines(entries: Iterable<readonly [string, RenderedBody]>, maxBytes: number): Generator<string> {
  let bytes = 0;
  for (const [key, body] of entries) {
    const json = JSON.stringify({ html: body.html, unknownLanguages: body.unknownLanguages });
    const line = `${key} ${integrityDigest(`${key} ${json}`)} ${json}`;
    bytes += Buffer.byteLength(line) + 1;
    if (bytes > maxBytes) return;
    yield line;
  }
}

/** The intact entries of a pack, and how many lines were not (cut short, changed, not an entry). */
export function unpackEntries(text: string): { entries: Map<string, RenderedBody>; damaged: number } {
  const entries = new Map<string, RenderedBody>();
  let damaged = 0;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const key = line.slice(0, 32);
    const seal = line.slice(33, 49);
    const json = line.slice(50);
    let body: unknown;
    if (KEY.test(key) && line[32] === " " && line[49] === " " && integrityDigest(`${key} ${json}`) === seal) {
      try {
        body = JSON.parse(json);
      } catch {
        body = undefined;
      }
    }
    if (isRenderedBody(body)) entries.set(key, { html: body.html, unknownLanguages: body.unknownLanguages });
    else damaged++;
  }
  return { entries, damaged };
}

// The digest of a page's comments: what says whether its stored rendering can be reused. Pure: no I/O.
// Astro's generateDigest hashes in WebAssembly, whose memory grows to the largest input and never
// shrinks: the JSON of one thread of 200,000 replies (50 MB) kept 140 MB of it for the rest of the
// build. Here the threads go into the hash in batches of about 64K characters, so no page is ever
// one string.
import { createHash } from "node:crypto";
import type { CommentThread } from "../api/generated/api-types.ts";

/** How much JSON is gathered before it goes into the hash: one update per comment cost a fifth more. */
const BATCH_CHARS = 65_536;

/** A digest of the sorted threads and the renderer's version (16 hex digits, like Astro's). */
export function entryDigest(renderVersion: string, sortedThreads: readonly CommentThread[]): string {
  const hash = createHash("sha256").update(renderVersion);
  let batch = "";
  const add = (text: string) => {
    batch += text;
    if (batch.length > BATCH_CHARS) {
      hash.update(batch);
      batch = "";
    }
  };
  for (const { children, ...thread } of sortedThreads) {
    // Each comment's JSON, and where its replies begin and end, so no two pages hash alike.
    add(`\n${JSON.stringify(thread)}[`);
    for (const reply of children) add(`\n${JSON.stringify(reply)}`);
    add("]");
  }
  return hash.update(batch).digest("hex").slice(0, 16);
}

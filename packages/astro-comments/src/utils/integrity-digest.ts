// One seal for everything the package writes and reads back later: the comment modules and data
// files (loader/module-format.ts) and the crawl a check leaves for the build
// (freshness/check-crawl.ts). A cache restored in part (a CI cache cut short, a full disk, a
// flipped byte) must never be trusted, and this is how damage is found.
import { createHash } from "node:crypto";

/** 16 hex digits of SHA-256: enough to tell damaged bytes from the written ones. */
export function integrityDigest(bytes: string | Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex").slice(0, 16);
}

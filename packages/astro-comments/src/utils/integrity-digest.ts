// One seal for everything the package writes and reads back later: the comment modules and data
// files (loader/module-format.ts) and the crawl a check leaves for the build
// (freshness/check-crawl.ts). A cache restored in part (a CI cache cut short, a full disk, a
// flipped byte) must never be trusted, and this is how damage is found.
import { createHash, hash } from "node:crypto";

/**
 * 16 hex digits of SHA-256: enough to tell damaged bytes from the written ones. One-shot
 * crypto.hash, not a Hash object: a cold build seals and checks some 100,000 small strings, and
 * the object's setup cost as much as the hashing.
 */
export function integrityDigest(bytes: string | Uint8Array): string {
  return hash("sha256", bytes, "hex").slice(0, 16);
}

/** integrityDigest of bytes given in parts, never joined: the digest of the parts one after another. */
export function integrityHash(): { update(part: Uint8Array): void; digest(): string } {
  const sha = createHash("sha256");
  return {
    update: (part) => void sha.update(part),
    digest: () => sha.digest("hex").slice(0, 16),
  };
}

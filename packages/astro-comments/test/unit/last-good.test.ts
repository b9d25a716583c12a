// The copy of the last good fetch a build falls back on when Astro has dropped its store and the
// API is down: a damaged copy is written whole again by the next good build.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lastGoodFiles, type StoredEntry } from "../../src/loader/last-good.ts";

const source = "example.com https://comments.example/api/comments";
const entries: StoredEntry[] = Array.from({ length: 50 }, (_, i) => ({
  id: `/posts/p${i}`,
  digest: `d${i}`,
  data: { path: `/posts/p${i}`, count: 3 },
  filePath: `node_modules/.astro/astro-comments/modules/comments-${i % 16}-x.mjs`,
}));
const header = { source, contentDigest: "same comments", renderVersion: "6" };
const fetch = (fetchedAt: string) => ({ source, fetchedAt, contentDigest: header.contentDigest });

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ac-last-good-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** One good build with the same comments as the last: writes the copy as a sync does. */
async function goodBuild(files: ReturnType<typeof lastGoodFiles>, fetchedAt: string): Promise<void> {
  await files.write(fetch(fetchedAt), { ...header, fetchedAt }, entries, await files.readFetch());
}

describe("the last good copy", () => {
  it.each([
    ["cut short (a CI cache restored in part)", (text: string) => text.slice(0, text.length / 3)],
    ["with a line changed that still reads as an entry", (text: string) => text.replace('"count":3', '"count":8')],
    ["emptied", () => ""],
  ])(
    "is written whole again by the next good build when it was %s, though the comments did not change",
    async (_, damage) => {
      const files = lastGoodFiles(pathToFileURL(`${dir}/`), source);
      await goodBuild(files, "2026-01-01T00:00:00.000Z");
      const file = join(dir, "astro-comments", "last-good.jsonl");
      writeFileSync(file, damage(readFileSync(file, "utf8")));
      await goodBuild(files, "2026-01-02T00:00:00.000Z");
      const saved = await files.readEntries();
      expect(saved?.unreadable).toBe(0);
      expect(saved?.entries).toEqual(entries);
    },
  );

  it("is not written again while it holds the same comments", async () => {
    const files = lastGoodFiles(pathToFileURL(`${dir}/`), source);
    await goodBuild(files, "2026-01-01T00:00:00.000Z");
    const file = join(dir, "astro-comments", "last-good.jsonl");
    const first = readFileSync(file, "utf8");
    await goodBuild(files, "2026-01-02T00:00:00.000Z");
    expect(readFileSync(file, "utf8")).toBe(first);
  });
});

// Lines written through the stream in runs (utils/write-lines.ts): every line and every break
// arrives, in order, whether a run ends inside the lines or at their end.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeLines } from "../../src/utils/write-lines.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ac-lines-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("writeLines", () => {
  it("writes each line and its break, in order, across runs of any length", async () => {
    const lines = [
      "first",
      "x".repeat(70_000),
      "",
      "é€😀",
      ...Array.from({ length: 5_000 }, (_, i) => `line ${i}`),
      "last",
    ];
    const file = join(dir, "lines.txt");
    await writeLines(file, lines);
    expect(readFileSync(file, "utf8")).toBe(`${lines.join("\n")}\n`);
  });

  it("writes an empty file for no lines", async () => {
    const file = join(dir, "empty.txt");
    await writeLines(file, []);
    expect(readFileSync(file, "utf8")).toBe("");
  });

  it("rejects with the write's error when the file cannot be made", async () => {
    await expect(writeLines(join(dir, "missing", "lines.txt"), ["a"])).rejects.toMatchObject({ code: "ENOENT" });
  });
});

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeAside } from "../../src/utils/write-aside.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ac-aside-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("a file written aside and renamed into place", () => {
  it("replaces the file it names, leaving nothing beside it", async () => {
    const file = join(dir, "comments.json");
    writeFileSync(file, "old");
    await writeAside(file, (temporary) => writeFile(temporary, "new"));
    expect(readFileSync(file, "utf8")).toBe("new");
    expect(readdirSync(dir)).toEqual(["comments.json"]);
  });

  it("takes the place of a folder under its name (a damaged cache)", async () => {
    const file = join(dir, "comments.json");
    mkdirSync(join(file, "inside"), { recursive: true });
    await writeAside(file, (temporary) => writeFile(temporary, "new"));
    expect(readFileSync(file, "utf8")).toBe("new");
    expect(readdirSync(dir)).toEqual(["comments.json"]);
  });

  it("keeps the file as it was when the write fails half way, and removes what it wrote", async () => {
    const file = join(dir, "comments.json");
    writeFileSync(file, "old");
    await expect(
      writeAside(file, async (temporary) => {
        await writeFile(temporary, "half");
        throw new Error("disk full");
      }),
    ).rejects.toThrow("disk full");
    expect(readFileSync(file, "utf8")).toBe("old");
    expect(readdirSync(dir)).toEqual(["comments.json"]);
  });

  it("lets two writes of one file at once both finish, leaving one of them whole", async () => {
    const file = join(dir, "bodies.txt");
    const text = (tag: string) => `${tag.repeat(1_000_000)}\n`;
    const write = (tag: string) =>
      writeAside(file, async (temporary) => {
        await writeFile(temporary, text(tag).slice(0, 500_000));
        await writeFile(temporary, text(tag), { flag: "w" });
      });
    await Promise.all([write("a"), write("b")]);
    expect([text("a"), text("b")]).toContain(readFileSync(file, "utf8"));
    expect(readdirSync(dir)).toEqual(["bodies.txt"]);
  });
});

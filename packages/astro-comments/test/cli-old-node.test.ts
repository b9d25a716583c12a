// `npx astro-comments check` on a Node older than the package supports: one line that names the
// Node it needs, exit 1, and none of the TypeError trace undici prints when it fails to load.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { minimumNodeVersion } from "../src/utils/node-version.ts";
import { run } from "./helpers/pack-sites.ts";

const bin = join(fileURLToPath(new URL("../", import.meta.url)), "dist/cli/astro-comments.js");

/** A Node below the minimum installed beside the repository's own (Debian's /usr/bin/node is 20 here), if any. */
function olderNode(): string | undefined {
  for (const candidate of ["/usr/bin/node", "/usr/local/bin/node"]) {
    if (!existsSync(candidate)) continue;
    const [major = 0, minor = 0] = execFileSync(candidate, ["--version"], { encoding: "utf8" })
      .trim()
      .slice(1)
      .split(".")
      .map(Number);
    if (major < 22 || (major === 22 && minor < 19)) return candidate;
  }
  return undefined;
}

function expectOneLine(result: { code: number; output: string }, version: string) {
  expect(result.code).toBe(1);
  expect(result.output).toBe(
    `astro-comments needs Node ${minimumNodeVersion} or newer, but this is Node ${version}: upgrade Node (the current LTS works) and run the command again.\n`,
  );
}

describe("astro-comments check on an old Node", () => {
  it("checks the version before undici loads (the version reported as 22.18.0)", async () => {
    const older = "data:text/javascript,Object.defineProperty(process.versions,'node',{value:'22.18.0'})";
    expectOneLine(await run(process.execPath, ["--import", older, bin, "check"], tmpdir()), "22.18.0");
  });

  const node = olderNode();
  it.skipIf(node === undefined)(
    "prints one line and exits 1 on a real older Node, where undici cannot load",
    async () => {
      const version = execFileSync(node!, ["--version"], { encoding: "utf8" }).trim().slice(1);
      expectOneLine(await run(node!, [bin, "check"], tmpdir()), version);
    },
  );
});

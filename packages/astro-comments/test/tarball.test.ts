// The tarball path the README (step 1) and docs/mock-and-ci.md still document until the first
// release: `npm pack` of each package from sources (its prepack building it, as in a fresh clone),
// then `npm install` of the tarballs into a fresh site. The only test that packs: every other one
// installs by name from the run's registry, and this one proves that the tarballs are those very
// packages, byte for byte, so what those tests show holds for the tarball path too.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packWorkspace } from "../../../mock-server/test/pack-helpers.ts";
import { npm, packFromSources, writeSite, type PackedPackage, type RunResult } from "./helpers/pack-sites.ts";
import { registry } from "./helpers/registry.ts";

const readme = readFileSync(fileURLToPath(new URL("../../../README.md", import.meta.url)), "utf8");
const guide = readFileSync(fileURLToPath(new URL("../../../docs/mock-and-ci.md", import.meta.url)), "utf8");

let work: string;
let site: string;
let packed: Record<"packages/astro-comments" | "schema" | "mock-server", PackedPackage>;
const installs: RunResult[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "astro-comments-tarball-"));
  packed = {
    "packages/astro-comments": await packFromSources(join(work, "astro-comments")),
    schema: await packWorkspace(join(work, "workspaces"), "schema"),
    "mock-server": await packWorkspace(join(work, "workspaces"), "mock-server"),
  };
  site = join(work, "site");
  writeSite(site, {
    "package.json": `${JSON.stringify({ name: "tarball-site", private: true, type: "module" }, null, 2)}\n`,
  });
  // README step 1, then the guide's install of the mock.
  installs.push(await npm(["install", packed["packages/astro-comments"].tarball], site));
  installs.push(await npm(["install", "--save-dev", packed.schema.tarball, packed["mock-server"].tarball], site));
}, 15 * 60_000);

afterAll(async () => {
  if (work) rmSync(work, { recursive: true, force: true });
}, 5 * 60_000);

describe("the tarball path", () => {
  it("packs the file names the README and the mock's guide install", () => {
    const names = Object.values(packed).map(({ tarball }) => basename(tarball));
    expect(names).toEqual([
      "astro-comments-0.1.0.tgz",
      "astro-comments-schema-0.1.0.tgz",
      "astro-comments-mock-server-0.1.0.tgz",
    ]);
    expect(readme).toMatch(/cd packages\/astro-comments && npm pack/);
    expect(readme).toContain(`npm install /path/to/${names[0]}`);
    expect(guide).toMatch(/cd schema && npm pack && cd \.\.\/mock-server && npm pack/);
    expect(guide).toContain(`npm install --save-dev /path/to/${names[1]} /path/to/${names[2]}`);
  });

  it("installs the tarballs with a plain npm install: the package, and the mock and schema as development dependencies", () => {
    for (const install of installs) expect(install.code, install.output).toBe(0);
    const manifest = JSON.parse(readFileSync(join(site, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies)).toEqual(["astro-comments"]);
    expect(Object.keys(manifest.devDependencies).sort()).toEqual([
      "@astro-comments/mock-server",
      "@astro-comments/schema",
    ]);
    for (const name of ["astro-comments", "@astro-comments/schema", "@astro-comments/mock-server"]) {
      const installed = JSON.parse(readFileSync(join(site, "node_modules", name, "package.json"), "utf8")) as {
        version: string;
      };
      expect(installed.version, name).toBe("0.1.0");
    }
  });

  it.each(["packages/astro-comments", "schema", "mock-server"] as const)(
    "packs %s byte for byte as the registry serves it",
    (workspace) => {
      const published = registry().published[workspace];
      expect(packed[workspace].files).toEqual(published.files);
      expect(packed[workspace].integrity).toBe(published.integrity);
    },
  );
});

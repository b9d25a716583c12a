// What `npm publish` would upload for each published package, and the manifest fields a registry
// shows. The file list is npm's own (`npm pack --dry-run --json`, the packlist `npm publish` uses)
// over the build `npm test` has just made. `--ignore-scripts` skips prepack, which only cleans and
// rebuilds dist from the same sources with the same command, so the list is the publish's; the one
// difference, files an earlier build left in dist, is reported below as files no source explains
// (a fresh clone has none). Installing these packages is what pack.test.ts and the registry tests do.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
/** The address every published manifest names. A placeholder: the project has no public repository yet. */
const repositoryUrl = "https://github.com/astro-comments/astro-comments";

interface Manifest {
  name: string;
  version: string;
  license?: string;
  private?: boolean;
  exports?: Record<string, string | Record<string, string>>;
  bin?: Record<string, string>;
  files?: string[];
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  engines?: { node?: string };
  repository?: { type: string; url: string; directory: string };
  homepage?: string;
  bugs?: string;
  publishConfig?: { access?: string; provenance?: boolean };
}

const published = ["schema", "mock-server", "packages/astro-comments"] as const;
type PublishedDir = (typeof published)[number];
const readManifest = (dir: string) => JSON.parse(readFileSync(join(repoRoot, dir, "package.json"), "utf8")) as Manifest;

/** The files `npm publish` would upload from `dir`, as npm lists them. */
function packedFiles(dir: string): string[] {
  const pack = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: join(repoRoot, dir),
    encoding: "utf8",
  });
  if (pack.status !== 0) throw new Error(`npm pack --dry-run failed in ${dir}: ${pack.stderr}`);
  const [result] = JSON.parse(pack.stdout) as [{ files: { path: string }[] }];
  return result.files.map((file) => file.path).sort();
}

/** Every file under `dir` (relative, with forward slashes). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => posix.join(posix.relative(dir, entry.parentPath).split("\\").join("/"), entry.name));
}

/** The module specifiers a file imports (static, dynamic and type imports), as TypeScript reads them. */
function importsOf(file: string, text: string): string[] {
  // An .astro component imports in its frontmatter, the part between the first two --- lines.
  const code = file.endsWith(".astro") ? (text.split(/^---$/m)[1] ?? "") : text;
  return ts.preProcessFile(code, true, true).importedFiles.map((imported) => imported.fileName);
}

/** The package a bare specifier names: `a` for "a/b", `@s/a` for "@s/a/b". */
const packageOf = (specifier: string) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

const builtins = new Set(builtinModules);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe.each(published)("what npm publishes from %s", (dir: PublishedDir) => {
  const manifest = readManifest(dir);
  const files = packedFiles(dir);
  const packageDir = join(repoRoot, dir);
  const read = (file: string) => readFileSync(join(packageDir, file), "utf8");
  const modules = files.filter((file) => /\.(js|ts|astro)$/.test(file));

  it("has every file its exports, types and bin name", () => {
    const targets = [
      ...Object.values(manifest.exports ?? {}).flatMap((target) =>
        typeof target === "string" ? [target] : Object.values(target),
      ),
      ...Object.values(manifest.bin ?? {}),
    ].map((target) => posix.normalize(target));
    expect(targets.length).toBeGreaterThan(1);
    const missing = targets.filter((target) =>
      target.includes("*")
        ? !files.some((file) => new RegExp(`^${target.split("*").map(escapeRegExp).join("[^/]+")}$`).test(file))
        : !files.includes(target),
    );
    expect(missing).toEqual([]);
  });

  it("runs its bin with Node", () => {
    for (const bin of Object.values(manifest.bin ?? {}))
      expect(read(posix.normalize(bin)).split("\n")[0]).toBe("#!/usr/bin/env node");
  });

  it("holds no test, fixture, source map, build info or environment file", () => {
    const unwanted = files.filter((file) =>
      /(^|\/)(test|tests|fixtures|__snapshots__)\/|\.test\.|\.map$|\.tsbuildinfo$|(^|\/)\.env|(^|\/)\.astro\//.test(
        file,
      ),
    );
    expect(unwanted).toEqual([]);
    // A map is not shipped, so no file may point at one (Vite would warn about it in `astro dev`).
    expect(modules.filter((file) => read(file).includes("sourceMappingURL"))).toEqual([]);
  });

  it("holds only the folders its `files` names, plus package.json, README.md and LICENSE", () => {
    const allowed = new Set([...(manifest.files ?? []), "package.json", "README.md", "LICENSE"]);
    expect(files.filter((file) => !allowed.has(file) && !allowed.has(file.split("/")[0]!))).toEqual([]);
    for (const file of ["package.json", "README.md", "LICENSE"]) expect(files).toContain(file);
  });

  // The registry shows this README to a reader who is already on the registry: installing by name
  // is the one route it may give. The repository's README and guides keep the tarball route.
  it("has a README that installs only by name, never from a tarball or a clone", () => {
    const readme = read("README.md");
    const installs = readme.match(/^(?:npm install|npm i|pnpm add|yarn add|bun add|npx astro add)\b.*$/gm) ?? [];
    expect(installs.filter((line) => /\.tgz|file:|\//.test(line.replace(/@astro-comments\//g, "")))).toEqual([]);
    expect(readme).not.toMatch(
      /tarball|\.tgz|npm pack|until it is on the registry|first release|not on the npm registry/i,
    );
  });

  it("holds no file that no source explains (an earlier build's leftovers: rebuild from clean)", () => {
    const sources = new Set(filesUnder(join(packageDir, "src")).map((file) => file.replace(/\.ts$/, "")));
    const explained = (file: string) => {
      if (!file.startsWith("dist/")) return true;
      // The mock's JavaScript is bundled (one file per entry point and shared chunks); its
      // declarations, like everything tsc builds, mirror src/ file by file.
      if (dir === "mock-server" && file.endsWith(".js"))
        return /^dist\/(index|cli\/comments-mock|chunks\/[\w-]+)\.js$/.test(file);
      return sources.has(file.replace(/^dist\//, "").replace(/\.(d\.ts|js)$/, ""));
    };
    expect(files.filter((file) => !explained(file))).toEqual([]);
  });

  it("resolves every relative import to a file it holds", () => {
    const dangling = modules.flatMap((file) =>
      importsOf(file, read(file))
        .filter((specifier) => specifier.startsWith("."))
        .map((specifier) => posix.join(posix.dirname(file), specifier))
        .filter((target) => {
          // TypeScript resolves a declaration file's "./x.js" or "./x.ts" (tsc keeps the source's
          // extension in declarations) to "./x.d.ts".
          const candidates = file.endsWith(".d.ts") ? [target, target.replace(/\.(js|ts)$/, ".d.ts")] : [target];
          return !candidates.some((candidate) => files.includes(candidate));
        })
        .map((target) => `${file} -> ${target}`),
    );
    expect(dangling).toEqual([]);
  });

  it("imports only Node's modules, itself, Astro's virtual modules and what it depends on", () => {
    const declared = new Set([
      manifest.name,
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    const undeclared = modules.flatMap((file) =>
      importsOf(file, read(file))
        .filter((specifier) => !specifier.startsWith("."))
        .filter(
          (specifier) =>
            !builtins.has(specifier.replace(/^node:/, "")) &&
            !declared.has(packageOf(specifier)) &&
            !(manifest.name === "astro-comments" && /^(astro:|virtual:astro-comments\/)/.test(specifier)),
        )
        .map((specifier) => `${file} imports ${specifier}`),
    );
    expect(undeclared).toEqual([]);
  });
});

describe("the manifests", () => {
  const workspaces = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { workspaces: string[] })
    .workspaces;
  const versions = new Map(workspaces.map((dir) => [readManifest(dir).name, readManifest(dir).version]));

  it("publish exactly the schema, the mock server and the integration; the rest is private", () => {
    expect(workspaces.filter((dir) => !readManifest(dir).private).sort()).toEqual([...published].sort());
    expect(readManifest(".").private).toBe(true);
  });

  it.each(published)("%s names its repository folder, homepage and issue tracker", (dir) => {
    const manifest = readManifest(dir);
    expect(manifest.repository).toEqual({ type: "git", url: `git+${repositoryUrl}.git`, directory: dir });
    expect(existsSync(join(repoRoot, dir, "README.md"))).toBe(true);
    expect(manifest.homepage).toBe(`${repositoryUrl}/tree/main/${dir}#readme`);
    expect(manifest.bugs).toBe(`${repositoryUrl}/issues`);
    expect(manifest.license).toBe("MIT");
  });

  it.each(published)("%s publishes with provenance, publicly, and states the Node it needs", (dir) => {
    const manifest = readManifest(dir);
    // A scoped package is private on the registry unless published with public access.
    expect(manifest.publishConfig).toEqual(
      manifest.name.startsWith("@") ? { access: "public", provenance: true } : { provenance: true },
    );
    expect(manifest.engines?.node).toMatch(/^>=\d+\.\d+\.\d+$/);
  });

  it.each(["package.json", "examples/site/package.json"])("%s (private) names no repository", (path) => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, path), "utf8")) as Record<string, unknown>;
    expect(
      Object.keys(manifest).filter((key) => ["repository", "homepage", "bugs", "publishConfig"].includes(key)),
    ).toEqual([]);
  });

  it("name each other, where a user installs them, at the version each is published at", () => {
    const ranges = published.flatMap((dir) => {
      const manifest = readManifest(dir);
      return Object.entries({ ...manifest.dependencies, ...manifest.peerDependencies })
        .filter(([name]) => versions.has(name))
        .map(([name, range]) => ({ from: manifest.name, name, range, published: versions.get(name) }));
    });
    // The mock serves exactly the contract of the schema it was built with: an exact version, which
    // `changeset version` moves with the schema's (release-workflows.test.ts runs it).
    expect(ranges.map(({ from, name }) => `${from} -> ${name}`)).toEqual([
      "@astro-comments/mock-server -> @astro-comments/schema",
    ]);
    for (const range of ranges) expect(range.range).toBe(range.published);
  });
});

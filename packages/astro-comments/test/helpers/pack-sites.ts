// The package as a user gets it: installed by name from the run's registry (./registry.ts), where
// the global setup published it, into fresh Astro sites in the system's temporary folder, far from
// this repository's node_modules, so nothing resolves that a plain `npm install` does not bring.
import { spawn } from "node:child_process";
import { cpSync, lstatSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { StoredComment } from "@astro-comments/mock-server";
import { inject } from "vitest";
import { plainText } from "./astro-cli.ts";
import { startNodeServer, type NodeServer } from "./processes.ts";
import { registryEnv } from "./registry.ts";

const packageDir = fileURLToPath(new URL("../../", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

/**
 * An approved top-level comment as the mock stores it, for the data file of a site a test installs:
 * dated 2026-01-0<id>, on /posts/hello-world of example.com, unless `fields` says otherwise.
 */
export const storedComment = (id: number, fields: Partial<StoredComment>): StoredComment => ({
  id,
  domain: "example.com",
  parentId: null,
  status: "approved",
  created_at: `2026-01-0${id}T10:00:00.000000Z`,
  content: "",
  html: "",
  name: "",
  path: "/posts/hello-world",
  ...fields,
});

export interface RunResult {
  code: number;
  /** stdout and stderr interleaved, without colours. */
  output: string;
  stdout: string;
}

/**
 * The environment of every command in a temporary site, as a developer's shell has it: this
 * repository's Node first on PATH (npm and the scripts it runs use it); none of the npm_* variables
 * an enclosing `npm test` sets, which would point npm back at this repository; no NODE_PATH
 * (pnpm's .bin shims set it, and it lets require() find packages that a strict node_modules does
 * not give the code asking); none of vitest's (under NODE_ENV=test and VITEST*, Astro's dev server
 * answers every page "Cannot GET"), nor credentials of our own. Package managers use the run's
 * registry where one was started.
 */
export function siteEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(npm_|VITEST|COMMENTS_)|^(INIT_CWD|NODE_PATH|TEST|NODE_ENV)$/i.test(key))
      env[key] = value;
  }
  const pathKey = Object.keys(env).find((key) => key.toUpperCase() === "PATH") ?? "PATH";
  env[pathKey] = [dirname(process.execPath), env[pathKey]].filter(Boolean).join(delimiter);
  return {
    ...env,
    ...(inject("registry") ? registryEnv() : {}),
    ASTRO_TELEMETRY_DISABLED: "1",
    NO_COLOR: "1",
    ...extra,
  };
}

/** Runs a command to its end; a failure is a result to assert on, not an exception. */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    // npm is npm.cmd on Windows, which only a shell runs.
    const child = spawn(command, args, {
      cwd,
      env: siteEnv(env),
      shell: process.platform === "win32" && command === "npm",
    });
    let output = "";
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code: code ?? 1, output: plainText(output), stdout }));
  });
}

/** The script behind a tool's command in this repository's node_modules, to run with this Node. */
export function repoTool(pkg: string): string {
  const dir = join(repoRoot, "node_modules", pkg);
  const { bin } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    bin: string | Record<string, string>;
  };
  return join(dir, typeof bin === "string" ? bin : Object.values(bin)[0]!);
}

export const npm = (args: readonly string[], cwd: string) =>
  run("npm", ["--no-audit", "--no-fund", "--no-update-notifier", ...args], cwd);

/** pnpm 10 and Yarn 4 from this repository's node_modules, run with this Node. */
export const pnpm = (args: readonly string[], cwd: string) => run(process.execPath, [repoTool("pnpm"), ...args], cwd);
export const yarn = (args: readonly string[], cwd: string) =>
  run(process.execPath, [repoTool("@yarnpkg/cli-dist"), ...args], cwd);

/** `node node_modules/astro/bin/astro.mjs …` in a site: no package manager's shim in between. */
export function siteAstro(site: string, args: readonly string[], env: Record<string, string> = {}): Promise<RunResult> {
  const manifest = JSON.parse(readFileSync(join(site, "node_modules/astro/package.json"), "utf8")) as {
    bin: { astro: string };
  };
  return run(process.execPath, [join("node_modules/astro", manifest.bin.astro), ...args], site, env);
}

/** Starts a site's @astrojs/node standalone server (dist/server/entry.mjs) in the site's environment. */
export function startSiteServer(site: string, env: Record<string, string>): Promise<NodeServer> {
  return startNodeServer(join(site, "dist/server/entry.mjs"), siteEnv(env), site);
}

export interface PackedPackage {
  tarball: string;
  /** Paths inside the package, e.g. "dist/index.js". */
  files: string[];
  /** The tarball's SHA-512 as npm reports it. */
  integrity: string;
}

/**
 * For the one test of the tarball path README step 1 documents (tarball.test.ts):
 * `npm pack` of the package's working tree as a fresh clone has it: sources only, no dist and no
 * build info, so its prepack must build everything that ships. The copy sits beside a link to this
 * repository's node_modules (the build's compiler and types), as the package does in the repo,
 * and the repository's own dist is left alone for the tests running beside this one.
 */
export async function packFromSources(work: string): Promise<PackedPackage> {
  const copy = join(work, "source", relative(repoRoot, packageDir));
  cpSync(packageDir, copy, {
    recursive: true,
    filter: (source) => !/[\\/](node_modules|dist|test|\.astro)$|\.tsbuildinfo$/.test(source),
  });
  cpSync(join(repoRoot, "tsconfig.base.json"), join(work, "source", "tsconfig.base.json"));
  symlinkSync(join(repoRoot, "node_modules"), join(work, "source", "node_modules"), "junction");
  const out = join(work, "tarballs");
  mkdirSync(out, { recursive: true });
  const result = await npm(["pack", "--json", "--pack-destination", out], copy);
  if (result.code !== 0) throw new Error(`npm pack of ${copy} failed (exit ${result.code}):\n${result.output}`);
  // The prepack build logs to stdout before npm's JSON report.
  const report = JSON.parse(result.stdout.slice(result.stdout.search(/^\[/m))) as Array<{
    filename: string;
    integrity: string;
    files: Array<{ path: string }>;
  }>;
  const packed = report[0]!;
  return {
    tarball: join(out, packed.filename),
    files: packed.files.map((file) => file.path).sort(),
    integrity: packed.integrity,
  };
}

/** Writes `files` (path → text) into `dir`. */
export function writeSite(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** A fresh site set up as the package's README says, with a page that uses both components and every runtime entry point. */
export const documentedSetup: Record<string, string> = {
  "package.json": `${JSON.stringify({ name: "pack-test-site", private: true, type: "module" }, null, 2)}\n`,
  "tsconfig.json": `${JSON.stringify({ extends: "astro/tsconfigs/strict", include: [".astro/types.d.ts", "**/*"], exclude: ["dist"] }, null, 2)}\n`,
  "astro.config.mjs": `import { defineConfig } from "astro/config";
import comments from "astro-comments";

export default defineConfig({
  integrations: [comments({ injectStyles: true })],
});
`,
  "src/content.config.ts": `import { defineCollection } from "astro:content";
import { commentsLoader } from "astro-comments/loader";

export const collections = { comments: defineCollection({ loader: commentsLoader() }) };
`,
  "src/pages/posts/hello-world.astro": `---
import { CommentCount, Comments } from "astro-comments/components";
import { getComments } from "astro-comments/data";
import { commentsStatus } from "astro-comments/status";

const { count } = await getComments(Astro.url.pathname);
const fetched: string | null = commentsStatus.fetchedAt;
---
<html lang="en">
  <head><meta charset="utf-8" /><title>Hello</title></head>
  <body data-fetched={fetched ?? "never"} data-count={count}>
    <article><h1>Hello, world</h1><CommentCount /></article>
    <Comments />
  </body>
</html>
`,
};

export interface Footprint {
  /** node_modules folders relative to the site, one per package copy npm placed. */
  packages: Set<string>;
  /** Bytes of every file in node_modules. */
  bytes: number;
}

/** What a site's node_modules holds. */
export async function footprint(site: string): Promise<Footprint> {
  const listing = await npm(["ls", "--all", "--parseable"], site);
  const packages = new Set(
    listing.stdout
      .split(/\r?\n/)
      .filter((line) => line.includes("node_modules"))
      .map((line) => relative(site, line).split("\\").join("/")),
  );
  return { packages, bytes: treeBytes(join(site, "node_modules")) };
}

/** Bytes of every file below `dir`, links not followed. */
function treeBytes(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) bytes += treeBytes(path);
    else bytes += lstatSync(path).size;
  }
  return bytes;
}

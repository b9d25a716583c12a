// Builds dist/ from scratch: the JavaScript with esbuild, one ES module per entry point (the library and the
// comments-mock bin) plus shared chunks, so `comments-mock admin` starts without loading Prism;
// then the library's declarations with tsc. The client behind `record` and `verify` is
// astro-comments' own (packages/astro-comments/src/api), bundled in so that this package never
// depends on astro-comments and, through its peer dependency, on Astro. Packages stay external:
// they are this package's dependencies, installed and deduplicated by npm.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
// Chunk names carry a content hash: without a clean start, old chunks would pile up and ship.
rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });

await build({
  absWorkingDir: packageDir,
  entryPoints: { index: "src/index.ts", "cli/comments-mock": "src/cli/comments-mock.ts" },
  outdir: "dist",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node22.19",
  packages: "external",
  legalComments: "inline",
  logLevel: "warning",
});

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const declarations = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
  cwd: packageDir,
  stdio: "inherit",
});
process.exit(declarations.status ?? 1);

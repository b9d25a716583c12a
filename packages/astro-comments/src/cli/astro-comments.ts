#!/usr/bin/env node
// The package's command, `npx --no astro-comments <command>`, run in the site's folder: named after
// the package, the one name a site's owner already knows. `--no` keeps npx to the installed copy.
// No Astro or Vite is loaded.
import { setFlagsFromString } from "node:v8";

// The Node check before anything loads undici, which on an older Node fails while loading, in a
// 15-line TypeError trace that says nothing about versions. Static imports are all loaded before
// any of this module runs, hence the dynamic ones; a command prints its message, not a stack.
try {
  await import("../utils/node-version.ts");
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
const { check } = await import("./check.ts");

const usage = `Usage: npx --no astro-comments check [options]   (npx --no astro-comments check --help for the options)\n`;

const [command, ...args] = process.argv.slice(2);
if (command === "check") {
  // The check waits on the network far more than it computes, and its memory is part of what it
  // promises: V8 may spend CPU on collecting garbage sooner (on issue 17's blog, peak RSS 136 ->
  // 103 MiB at the same wall time).
  setFlagsFromString("--optimize-for-size");
  const code = await check(args, {
    env: process.env,
    cwd: process.cwd(),
    print: (line) => process.stdout.write(line.endsWith("\n") ? line : `${line}\n`),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  // Exits at once: the answer is printed and the crawl left for the build; nothing else is awaited.
  process.exit(code);
} else {
  process.stdout.write(
    command === undefined || command === "--help" || command === "-h"
      ? usage
      : `astro-comments: unknown command "${command}"; build.\n${usage}`,
  );
  process.exit(1);
}

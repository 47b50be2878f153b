#!/usr/bin/env bash
# One busy loop pinned on each core, for SECONDS (default 600), then they stop by themselves: the
# "loaded box" that the test suite and the engine's time budget must not
# notice. Usage: scripts/busy-loops.sh [SECONDS] & npm test; wait
set -euo pipefail
seconds=${1:-600}
cores=$(nproc)
# Killed early (a flake hunt stopped mid-round), take the loops along: left behind they load the box
# for the rest of their hour, and every "quiet" run after is not.
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
trap 'exit 143' TERM INT
for ((core = 0; core < cores; core++)); do
  taskset -c "$core" timeout "$seconds" sh -c 'while :; do :; done' &
done
wait || true

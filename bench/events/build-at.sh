#!/usr/bin/env bash
# Builds the event store as it was at a commit, outside the work tree, for before/after
# figures of one run (run.mjs --before DIR, append-bench.mjs --dist DIR,dist):
#   bench/events/build-at.sh COMMIT [DIR]     (default DIR: /tmp/wafctl-events-<commit>)
# Uses git archive (the repository and its work tree are not touched) and this checkout's
# node_modules. Prints the outDir to pass on.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
commit="$(git -C "$root" rev-parse --short "${1:?usage: build-at.sh COMMIT [DIR]}")"
dir="${2:-/tmp/wafctl-events-$commit}"
rm -rf "$dir"
mkdir -p "$dir/src"
git -C "$root" archive "$commit" daemon shared tsconfig.json package.json bench/events/tsconfig.json | tar -x -C "$dir/src"
ln -s "$root/node_modules" "$dir/node_modules" # found from src/ (tsc) and dist/ (node) alike
(cd "$dir/src" && node "$root/node_modules/typescript/bin/tsc" -p bench/events/tsconfig.json --outDir "$dir/dist")
echo "$dir/dist"

#!/usr/bin/env bash
# A/B of the shipper mix: builds two revisions side by side (git worktrees under $AB_DIR, sharing this
# checkout's node_modules) and runs bench/ingest/vector-mix.mjs of this checkout against each, interleaved
# A B, B A, A B ... (the order alternates, so a load that drifts during the series favours neither),
# so foreign load on a shared box falls on both alike. Prints one JSON line per run and a
# median summary (events/s, daemon CPU µs/event).
#   bench/ingest/ab-vector-mix.sh REV_A REV_B [rounds, default 3] [extra vector-mix.mjs flags...]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
A="$1" B="$2" ROUNDS="${3:-3}"
shift $(( $# < 3 ? $# : 3 ))
AB_DIR="${AB_DIR:-/tmp/wafctl-ab-ingest}"
mkdir -p "$AB_DIR"
tree_of() {
  local rev sha dir
  rev="$1"; sha="$(git -C "$REPO" rev-parse --short "$rev")"; dir="$AB_DIR/$sha"
  if [ ! -f "$dir/dist/daemon/main.js" ]; then
    rm -rf "$dir"; git -C "$REPO" worktree add --detach "$dir" "$sha" >&2
    ln -s "$REPO/node_modules" "$dir/node_modules"
    (cd "$dir" && npx tsc -p tsconfig.build.json && node scripts/copy-assets.mjs) >&2
  fi
  echo "$dir"
}
TA="$(tree_of "$A")" TB="$(tree_of "$B")"
OUT="$AB_DIR/runs-$(date -u +%Y%m%dT%H%M%S).jsonl"
for i in $(seq "$ROUNDS"); do
  order=("$TA" "$TB"); [ $((i % 2)) = 0 ] && order=("$TB" "$TA")
  for t in "${order[@]}"; do
    node "$HERE/vector-mix.mjs" --tree "$t" --json "$@" 2>/dev/null | tee -a "$OUT"
  done
done
node -e '
const runs = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(JSON.parse);
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
for (const tree of [...new Set(runs.map((r) => r.tree))]) {
  const rs = runs.filter((r) => r.tree === tree);
  console.log(`${tree}: ${rs.length} runs, median ${Math.round(med(rs.map((r) => r.events_per_s)))} events/s, daemon CPU ${med(rs.map((r) => r.daemon_cpu_us_per_event)).toFixed(1)} us/event (runs: ${rs.map((r) => Math.round(r.events_per_s) + "/" + r.daemon_cpu_us_per_event.toFixed(1)).join(" ")}), load ${rs.map((r) => r.load_before[0]).join(" ")}, exactly once: ${rs.every((r) => r.stored.exactlyOnce)}`);
}' "$OUT"

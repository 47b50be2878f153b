#!/usr/bin/env bash
# Does each speed layer of the rule compiler pay? For every layer of daemon/engine/rules/speed-layers.ts and
# every mix, ab-edge.sh runs the same build twice, interleaved: A with every layer on, B with that one layer off
# (its WAFCTL_...=off). A layer pays when B costs more CPU per request than A by more than the rounds' spread.
# usage: bench/proxy/ab-layers.sh [rounds] [seconds] [mixes...]   (default 4 rounds of 6 s; get varied-get)
# Prints one block per layer and mix and ends with a table of the median B/A CPU per request; the raw rounds go to
# bench/proxy/results/ab-layers-<build>-<time>.txt. Needs a quiet box (check `uptime`; no busy loops left over).
set -euo pipefail
ROUNDS=${1:-4} DUR=${2:-6}; shift $(( $# > 2 ? 2 : $# ))
if [ $# -gt 0 ]; then MIXES=("$@"); else MIXES=(get varied-get); fi
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd); REPO=$(cd "$HERE/../.." && pwd)
LAYERS=$(sed -n "s/^  '\([a-z-]*\)': '\(WAFCTL_[A-Z_]*\)',$/\1=\2/p" "$REPO/daemon/engine/rules/speed-layers.ts")
[ -n "$LAYERS" ] || { echo "no layers found in daemon/engine/rules/speed-layers.ts" >&2; exit 1; }
[ -z "$(git -C "$REPO" status --porcelain -- daemon shared)" ] || { echo "commit first: A is HEAD's build, B this tree's" >&2; exit 2; }
OUT=$REPO/bench/proxy/results/ab-layers-$(git -C "$REPO" rev-parse --short HEAD)-$(date -u +%Y%m%d-%H%M).txt
echo "# ab-layers: $ROUNDS rounds x ${DUR}s, mixes ${MIXES[*]}, $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$OUT"
built=${SKIP_BUILD:-0}; summary=()   # SKIP_BUILD=1 reuses the last builds
for pair in $LAYERS; do
  layer=${pair%%=*} var=${pair#*=}
  for mix in "${MIXES[@]}"; do
    echo "## $layer off ($var=off), $mix" | tee -a "$OUT"
    log=$(A_REF=HEAD B_ENV="$var=off" SKIP_BUILD=$built "$HERE/ab-edge.sh" "$ROUNDS" "$DUR" "$mix" on 2>&1 | tee -a "$OUT")
    built=1
    # B/A CPU per request, round by round; the median of those is the layer's worth on this mix.
    ratio=$(awk '/^round [0-9]+ A:/ {a[$2]=$6} /^round [0-9]+ B:/ {b[$2]=$6} END {for (r in a) if (r in b && a[r] > 0) printf "%.3f\n", b[r]/a[r]}' <<< "$log" \
      | sort -n | awk '{v[NR]=$1} END {if (NR == 0) print "n/a"; else printf "%.3f (%.3f-%.3f, %d rounds)", (NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2), v[1], v[NR], NR}')
    echo "  B/A CPU per request: $ratio" | tee -a "$OUT"
    summary+=("| $layer | $mix | $ratio |")
  done
done
printf '\n| layer off | mix | CPU per request, B/A (median, range) |\n|---|---|---|\n' | tee -a "$OUT"
printf '%s\n' "${summary[@]}" | tee -a "$OUT"

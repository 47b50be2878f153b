#!/usr/bin/env bash
# Fresh-process open probes (store-bench.mjs open-probe) of several builds, interleaved rep
# by rep so that each sees the same foreign load; prints the box's load average and the
# CPU other processes used during each probe ("foreign", % of both cores).
#   bench/events/open-ab.sh REPS warm|cold LABEL:DIST:DATA [LABEL:DIST:DATA ...]
# DIST: a tsc outDir (dist, or build-at.sh COMMIT); DATA: an EVENTS_ANCHOR_DATA directory.
# Builds with different snapshot formats need their own DATA (segments hard-linked, own
# index/): see bench/events/README.md, 2026-11-26. cold drops the page cache before each probe.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
reps=$1 mode=$2
shift 2
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8}' /proc/stat; }
for _ in $(seq "$reps"); do
  for spec in "$@"; do
    IFS=: read -r label dist data <<< "$spec"
    if [ "$mode" = cold ]; then sync; echo 3 > /proc/sys/vm/drop_caches; fi
    load=$(cut -d' ' -f1 /proc/loadavg); b0=$(busy); t0=$(date +%s%N)
    out=$(EVENTS_ANCHOR_DATA=$data EVENTS_STORE_DIST=$dist node "$here/store-bench.mjs" open-probe)
    t1=$(date +%s%N); b1=$(busy)
    own=$(jq '.process_cpu_ms' <<< "$out")
    wall=$(( (t1 - t0) / 1000000 ))
    foreign=$(echo "100 * (($b1 - $b0) * 10 - $own) / (2 * $wall)" | bc -l | xargs printf '%.0f')
    echo "$(date -u +%T) $label $mode load=$load foreign=${foreign}% $(jq -c '{open: (.open_ms|floor), to_analytics: (.since_process_start_ms|floor), cpu: (.process_cpu_ms|floor), waf: (.first_waf_page_ms*10|floor/10), rollup: (.first_rollup_90d_ms*10|floor/10), ip: (.then_ip_page_ms*10|floor/10), uri: (.then_uri_like_page_ms*10|floor/10), rss: .rss_mb, total}' <<< "$out")"
  done
done

#!/usr/bin/env bash
# A/B of the edge's CPU per request: A = git ref ($A_REF, default HEAD), B = this working tree; interleaved rounds.
# usage: bench/proxy/ab-edge.sh [rounds] [seconds] [mix get|post|varied-get|varied-post] [waf on|off]
# Each round starts the real daemon (2 workers, daemon-edge.sh) from A's then B's build, warms it 2 s with
# wrk -t2 -c50, measures for [seconds], and prints req/s and the daemon's CPU (primary + workers) per request.
# AB_PORT (default 28240; +1 TLS, +2 API) and AB_DIR (default /tmp/ab-edge) keep two users apart.
# SKIP_BUILD=1 reuses the last builds. A_NODE_FLAGS / B_NODE_FLAGS give one side node or V8 flags (they reach the
# workers through execArgv), e.g. A_REF=HEAD B_NODE_FLAGS=--single-threaded-gc to measure a flag alone.
# A_SITE_SET / B_SITE_SET give one side `wafctl site set` options (B_SITE_SET='--response-inspection off').
# A_ENV / B_ENV give one side's daemon environment variables, e.g. B_ENV='WAFCTL_BYTE_GATE=off' (a speed layer
# off: daemon/engine/rules/speed-layers.ts); with A_REF=HEAD on a clean tree both sides run the same build.
# Needs origin-nginx (started if missing) from the anchors.
set -euo pipefail
ROUNDS=${1:-4} DUR=${2:-6} MIX=${3:-get} WAFM=${4:-on}
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd); HERE=$REPO/bench/proxy; ANCHORS=/work/shared/anchors/proxy
PORT=${AB_PORT:-28240} DIR=${AB_DIR:-/tmp/ab-edge}
. "$ANCHORS/lib.sh"
. "$HERE/daemon-edge.sh"
. "$HERE/mix-lua.sh"
build() { # dir ref
  local w=$1 ref=$2; mkdir -p $w/pids
  ( WORK=$w; REPO=$REPO; if [ "$ref" != WT ]; then BENCH_REF=$ref; fi; . "$HERE/build-dist.sh"; build_dist ) }
if [ "${SKIP_BUILD:-0}" != 1 ]; then build $DIR/A "${A_REF:-HEAD}"; build $DIR/B WT; fi
[ -n "$(server_pid origin-nginx)" ] && kill -0 "$(server_pid origin-nginx)" 2>/dev/null || "$ANCHORS/start-anchors.sh" origin-nginx >&2
LUA=$DIR/$MIX.lua
mkdir -p "$DIR"; mix_lua "$MIX" "$LUA"
ticks() { local t=0; for p in "$@"; do [ -r /proc/$p/stat ] && t=$((t + $(awk '{print $14+$15}' /proc/$p/stat))); done; echo $t; }
TCK=$(getconf CLK_TCK)
for r in $(seq $ROUNDS); do
  for side in A B; do
    WORK=$DIR/$side
    flags_var=${side}_NODE_FLAGS
    env_var=${side}_ENV
    for kv in ${!env_var:-}; do export "$kv"; done
    start_daemon_edge edge-ab $PORT $WAFM ${!flags_var:-} 2>/dev/null
    for kv in ${!env_var:-}; do unset "${kv%%=*}"; done
    # A_SITE_SET / B_SITE_SET: `wafctl site set` options for one side, e.g. B_SITE_SET='--response-inspection off'.
    site_var=${side}_SITE_SET
    if [ -n "${!site_var:-}" ]; then daemon_cli edge-ab site set www.example.com ${!site_var} > /dev/null; fi
    PID=$(cat $WORK/pids/edge-ab.pid); PIDS="$PID $(pgrep -P $PID | tr '\n' ' ')"
    wrk -t2 -c50 -d2s -s "$LUA" http://127.0.0.1:$PORT/ >/dev/null
    t0=$(ticks $PIDS)
    json=$(wrk -t2 -c50 -d${DUR}s -s "$LUA" http://127.0.0.1:$PORT/ | grep '^JSON:' | sed 's/^JSON://')
    t1=$(ticks $PIDS)
    n=$(jq .requests <<< "$json"); rps=$(jq '.rps|floor' <<< "$json"); bad=$(jq .err_status <<< "$json")
    echo "round $r $side: $rps req/s, $(echo "scale=1; ($t1-$t0)*1000000/$TCK/$n" | bc) us/req, non2xx $bad, load $(cut -d' ' -f1 /proc/loadavg)"
    kill -TERM $PID; for _ in $(seq 100); do kill -0 $PID 2>/dev/null || break; sleep 0.1; done
  done
done

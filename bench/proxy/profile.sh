#!/usr/bin/env bash
# Where the CPU of the edge with the WAF on goes per request: the real daemon (2 workers, cms + CRS PL1) under
# `node --cpu-prof` (the flag reaches the node:cluster workers through execArgv), one wrk mix for D seconds after a
# warm-up, then a graceful stop (the profiles are written at exit) and profile-summary.mjs.
# usage: bench/proxy/profile.sh [-x get|post|attack|varied-get|varied-post] [-d seconds] [-w waf_mode on|off] [-c connections]
# Prints the split engine / adapter / proxy / node+undici / GC in µs per request, and keeps the .cpuprofile files
# (open them in Chrome DevTools or speedscope) under $BENCH_DIR/prof-<mix>-<mode>. Needs the anchors' origin-nginx.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
ANCHORS="${ANCHORS:-$(cd "$REPO/../shared/anchors/proxy" 2>/dev/null && pwd || echo /work/shared/anchors/proxy)}"
. "$ANCHORS/lib.sh"
MIX=get DUR=15 WAF=on CONNS=50
while getopts "x:d:w:c:" o; do case "$o" in
  x) MIX="$OPTARG";; d) DUR="$OPTARG";; w) WAF="$OPTARG";; c) CONNS="$OPTARG";; *) sed -n 2,7p "$0"; exit 2;; esac; done
WORK="${BENCH_DIR:-/tmp/wafctl-bench-proxy}"
PROF="$WORK/prof-$MIX-$WAF"
mkdir -p "$WORK/pids" "$WORK/lua"; rm -rf "$PROF"; mkdir -p "$PROF"
. "$HERE/build-dist.sh"
. "$HERE/daemon-edge.sh"
. "$HERE/mix-lua.sh"
STARTED_ORIGIN=0
if [ -z "$(server_pid origin-nginx)" ] || ! kill -0 "$(server_pid origin-nginx)" 2>/dev/null; then "$ANCHORS/start-anchors.sh" origin-nginx >&2; STARTED_ORIGIN=1; fi
stop_all() {
  local f="$WORK/pids/edge-prof.pid"
  [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true; rm -f "$f"
  [ "$STARTED_ORIGIN" = 1 ] && "$ANCHORS/stop-anchors.sh" >&2 || true
}
trap stop_all EXIT
trap "exit 1" INT TERM
build_dist

# The profilers run from process start; only the samples taken during the measured wrk run count (V8's profile
# clock is CLOCK_MONOTONIC), so compiling CRS at start, the 3 s warm-up (JIT) and the shutdown are left out.
start_daemon_edge edge-prof 28120 "$WAF" --cpu-prof --cpu-prof-dir="$PROF"
PID="$(cat "$WORK/pids/edge-prof.pid")"
LUA="$WORK/lua/$MIX-profile.lua"
mix_lua "$MIX" "$LUA"
monotonic_us() { python3 -c 'import time; print(int(time.monotonic() * 1e6))'; }
wrk -t2 -c"$CONNS" -d3s -s "$LUA" "http://127.0.0.1:28120/" > /dev/null
from=$(monotonic_us)
json=$(wrk -t2 -c"$CONNS" -d"${DUR}s" -s "$LUA" "http://127.0.0.1:28120/" | grep '^JSON:' | sed 's/^JSON://')
until=$(monotonic_us)
echo "wrk ${DUR}s: $(jq -r '"\(.requests) requests, \(.rps|floor) req/s, non-2xx \(.err_status)"' <<< "$json")" >&2
kill -TERM "$PID"
for _ in $(seq 300); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
rm -f "$WORK/pids/edge-prof.pid"
sleep 0.5   # workers write their profiles as they exit
echo "build $COMMIT, mix $MIX, WAF $WAF, wrk -t2 -c$CONNS; profiles in $PROF" >&2
node "$HERE/profile-summary.mjs" "$PROF" "$(jq .requests <<< "$json")" "$from" "$until"

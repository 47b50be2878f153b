#!/usr/bin/env bash
# Checks that the varied mixes send what they claim: runs a mix's generator in wrk (2 threads, as the benches do)
# without sending anything that matters (1 s against origin-nginx), dumps N requests per thread, and counts how many
# are distinct (whole request, request line, Cookie, Referer, User-Agent). Prints one sample request.
# usage: bench/proxy/varied-check.sh [varied-get|varied-post] [requests_per_thread, default 20000]
# VARIED_CHECK_DIR (default /tmp/varied-check) holds the dumps. Needs the anchors' origin-nginx running (any 200 server).
set -euo pipefail
MIX=${1:-varied-get} N=${2:-20000}
HERE="$(cd "$(dirname "$0")" && pwd)"; REPO="$(cd "$HERE/../.." && pwd)"
ANCHORS="${ANCHORS:-$(cd "$REPO/../shared/anchors/proxy" 2>/dev/null && pwd || echo /work/shared/anchors/proxy)}"
. "$ANCHORS/lib.sh"
. "$HERE/mix-lua.sh"
DIR="${VARIED_CHECK_DIR:-/tmp/varied-check}"; mkdir -p "$DIR"; rm -f "$DIR"/dump-*.txt
LUA="$DIR/$MIX-check.lua"
mix_lua "$MIX" "$LUA"
# Appended: after the mix's init, each thread calls request() N times and writes the requests, one per line
# (CR LF -> " | "), to dump-<thread>.txt. The requests' counter then goes on from N: the run's own requests differ too.
cat >> "$LUA" <<LUA
local mix_init = init
function init(args)
  mix_init(args)
  local f = io.open("$DIR/dump-" .. thread_index .. ".txt", "w")
  for _ = 1, $N do f:write((request():gsub("\r\n", " | ")), "\n") end
  f:close()
end
LUA
wrk -t2 -c2 -d1s -s "$LUA" "http://127.0.0.1:$P_ORIGIN_NGINX/" > /dev/null
ALL="$DIR/all.txt"; cat "$DIR"/dump-*.txt > "$ALL"
count() { sort -u | wc -l; }
echo "$MIX: $(wc -l < "$ALL") requests from 2 threads"
echo "  distinct requests:     $(count < "$ALL")"
echo "  distinct request lines: $(cut -d'|' -f1 "$ALL" | count)"
for h in Cookie Referer User-Agent; do
  echo "  distinct $h: $(grep -o " $h: [^|]*" "$ALL" | count) (in $(grep -c " $h: " "$ALL") requests)"
done
echo "sample:"; head -1 "$ALL" | sed 's/ | /\n  /g' | head -30

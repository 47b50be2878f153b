#!/usr/bin/env bash
# The edge with the WAF off vs the plain nginx proxy (and the bare undici proxy) from
# ../../../shared/anchors/proxy: same origin (origin-nginx), same wrk mixes (get, post), interleaved rounds.
# usage: bench/proxy/run.sh [-m throughput|latency] [-r rounds] [-d seconds] [-o out.jsonl] [-g max_busy_pct]
#   -g: before each run wait (at most GATE_MAX_WAIT s, default 120) until the machine is below that % busy.
#   Each run records foreign_cpu_pct (CPU used by anything but the server, the origin and wrk); summarize.mjs
#   leaves out runs above 15 % when enough undisturbed runs remain.
# Needs nginx and wrk (apt-get install -y nginx-light wrk jq bc). Starts origin-nginx and nginx-proxy through the
# anchors' start-anchors.sh (unless running), the edge (1 process and 2 workers) and the anchors' node-undici proxy
# (1 and 2 workers) on 28110-28113; stops what it started, by pid.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
ANCHORS="${ANCHORS:-$(cd "$REPO/../shared/anchors/proxy" 2>/dev/null && pwd || echo /work/shared/anchors/proxy)}"
. "$ANCHORS/lib.sh"

MODE=throughput ROUNDS=3 DUR=10 OUT="" GATE="" GATE_MAX_WAIT="${GATE_MAX_WAIT:-120}"
while getopts "m:r:d:o:g:" o; do case "$o" in
  m) MODE="$OPTARG";; r) ROUNDS="$OPTARG";; d) DUR="$OPTARG";; o) OUT="$OPTARG";; g) GATE="$OPTARG";; *) sed -n 2,10p "$0"; exit 2;; esac; done
gate() { # waits until the machine is quiet; echoes the seconds waited
  local waited=0 b0 st0 t0 b1 st1 t1
  [ -n "$GATE" ] || { echo 0; return; }
  while :; do
    read -r b0 st0 t0 < <(sys_ticks); sleep 2; read -r b1 st1 t1 < <(sys_ticks)
    [ $(( 100 * (b1 - b0) )) -le $(( GATE * (t1 - t0) )) ] && break
    [ "$waited" -ge "$GATE_MAX_WAIT" ] && break
    sleep 3; waited=$((waited + 5))
  done
  echo "$waited"
}
if [ "$MODE" = latency ]; then THREADS=1 CONNS=5; else THREADS=2 CONNS=50; fi
OUT="${OUT:-$HERE/results/$MODE-$(date +%Y%m%d-%H%M%S).jsonl}"
WORK="${BENCH_DIR:-/tmp/wafctl-bench-proxy}"
mkdir -p "$(dirname "$OUT")" "$WORK/lua" "$WORK/pids"
TCK=$(getconf CLK_TCK)

# --- servers -----------------------------------------------------------------------------------------------
STARTED_ANCHORS=()
for a in origin-nginx nginx-proxy; do
  if [ -z "$(server_pid "$a")" ] || ! kill -0 "$(server_pid "$a")" 2>/dev/null; then
    "$ANCHORS/start-anchors.sh" "$a" >&2; STARTED_ANCHORS+=("$a")
  fi
done

# 500 blacklist entries (documentation and reserved ranges, none matching 127.0.0.1).
SITES="$(node -e '
  const sites = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const list = [];
  for (let i = 0; i < 250; i++) list.push(`198.51.${i % 256}.${(i * 7) % 256}`);
  for (let i = 0; i < 200; i++) list.push(`203.0.${i}.0/24`);
  for (let i = 0; i < 50; i++) list.push(`2001:db8:${i.toString(16)}::/48`);
  sites[0].ipBlacklist = list; delete sites[0]._comment;
  process.stdout.write(JSON.stringify(sites));' "$HERE/bench-sites.json")"

# The anchors' bare undici proxy, run against this repo's undici (no npm install needed).
mkdir -p "$WORK/node"; ln -sfn "$REPO/node_modules" "$WORK/node/node_modules"
cp "$ANCHORS/node/proxy-undici.mjs" "$ANCHORS/node/cluster.mjs" "$WORK/node/"

start_bg() { # name port cmd...
  local name="$1" port="$2"; shift 2
  ( cd "$REPO" && exec env PORT="$port" "$@" > "$WORK/$name.log" 2>&1 ) &
  echo $! > "$WORK/pids/$name.pid"
  for _ in $(seq 300); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0; sleep 0.1; done
  echo "$name did not start: $(cat "$WORK/$name.log")" >&2; return 1
}
stop_all() {
  for f in "$WORK"/pids/*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true; rm -f "$f"; done
  [ ${#STARTED_ANCHORS[@]} -gt 0 ] && "$ANCHORS/stop-anchors.sh" >&2 || true
}
trap stop_all EXIT
trap "exit 1" INT TERM   # so that EXIT runs (and stops what was started) when interrupted
# Compiled JS, as the daemon runs from dist/ (tsx's on-the-fly transform adds per-closure helpers).
if [ "${SKIP_BUILD:-0}" != 1 ]; then   # SKIP_BUILD=1 reuses the last build
  echo "compiling the edge to $WORK/dist ..." >&2
  (cd "$REPO" && npx tsc -p tsconfig.json --outDir "$WORK/dist" --incremental false > "$WORK/tsc.log" 2>&1) || true
fi
[ -f "$WORK/dist/bench/proxy/edge-server.js" ] || { echo "tsc emitted nothing: $(tail "$WORK/tsc.log")" >&2; exit 1; }
mkdir -p "$WORK/dist/daemon/proxy/checks/bot"
cp "$REPO/daemon/proxy/checks/bot/scanners-user-agents.data" "$WORK/dist/daemon/proxy/checks/bot/"
ln -sfn "$REPO/node_modules" "$WORK/dist/node_modules"
NODE_ARGS=(node "$WORK/dist/bench/proxy/edge-server.js")
SITES_JSON="$SITES" WORKERS=1 start_bg edge 28110 "${NODE_ARGS[@]}"
SITES_JSON="$SITES" WORKERS=2 start_bg edge-cluster2 28111 "${NODE_ARGS[@]}"
UPSTREAM="http://127.0.0.1:$P_ORIGIN_NGINX" start_bg node-undici 28112 node "$WORK/node/proxy-undici.mjs"
UPSTREAM="http://127.0.0.1:$P_ORIGIN_NGINX" WORKERS=2 start_bg node-undici-cluster2 28113 node "$WORK/node/cluster.mjs" "$WORK/node/proxy-undici.mjs"

# name|port|pid
SC=("nginx-proxy|$P_NGINX_PROXY|$(server_pid nginx-proxy)" "edge|28110|$(cat "$WORK/pids/edge.pid")"
    "edge-cluster2|28111|$(cat "$WORK/pids/edge-cluster2.pid")" "node-undici|28112|$(cat "$WORK/pids/node-undici.pid")"
    "node-undici-cluster2|28113|$(cat "$WORK/pids/node-undici-cluster2.pid")")
MIXES=(get post)
ORIGIN_PID="$(server_pid origin-nginx)"

lua_for() {
  local f="$WORK/lua/$1-$MODE.lua"
  { cat "$ANCHORS/lua/browser-headers.lua" "$ANCHORS/lua/mix-$1.lua" "$ANCHORS/lua/report.lua"
    [ "$MODE" = latency ] && cat "$ANCHORS/lua/rate.lua"; true; } > "$f"
  echo "$f"
}

# Every server must answer the benign mixes with 200 before anything is measured.
for s in "${SC[@]}"; do IFS='|' read -r name port pid <<< "$s"
  code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: www.example.com' -A 'Mozilla/5.0 Chrome/124' "http://127.0.0.1:$port/")
  [ "$code" = 200 ] || { echo "$name answers $code" >&2; exit 1; }
  wrk -t"$THREADS" -c"$CONNS" -d3s -s "$(lua_for get)" "http://127.0.0.1:$port/" > /dev/null 2>&1 || true
done

CELLS=(); for s in "${SC[@]}"; do for m in "${MIXES[@]}"; do CELLS+=("$s|$m"); done; done
N=${#CELLS[@]}
echo "mode=$MODE rounds=$ROUNDS ${DUR}s wrk -t$THREADS -c$CONNS, $N cells -> $OUT" >&2
for ((r = 1; r <= ROUNDS; r++)); do
  for ((i = 0; i < N; i++)); do
    IFS='|' read -r name port pid mix <<< "${CELLS[$(( (i + r - 1) % N ))]}"
    gw=$(gate)
    s0=$(tree_ticks "$pid"); o0=$(tree_ticks "$ORIGIN_PID"); read -r b0 st0 t0 < <(sys_ticks)
    res=$(/usr/bin/time -f '%U %S' -o "$WORK/wrk-time.txt" wrk -t"$THREADS" -c"$CONNS" -d"${DUR}s" --latency -s "$(lua_for "$mix")" "http://127.0.0.1:$port/")
    read -r b1 st1 t1 < <(sys_ticks); s1=$(tree_ticks "$pid"); o1=$(tree_ticks "$ORIGIN_PID")
    read -r wu ws < "$WORK/wrk-time.txt"; wrk_ticks=$(echo "($wu + $ws) * $TCK / 1" | bc)
    json=$(grep '^JSON:' <<< "$res" | sed 's/^JSON://') || { echo "wrk failed: $res" >&2; continue; }
    line=$(jq -c --arg mode "$MODE" --arg sc "$name" --arg mix "$mix" --argjson round "$r" \
      --argjson sut "$(( s1 - s0 ))" --argjson org "$(( o1 - o0 ))" --argjson tck "$TCK" \
      --argjson busy "$(( b1 - b0 ))" --argjson steal "$(( st1 - st0 ))" --argjson tot "$(( t1 - t0 ))" \
      --argjson wrkt "$wrk_ticks" --argjson gw "$gw" \
      '. + {mode:$mode, scenario:$sc, mix:$mix, round:$round, sut_cpu_s:($sut/$tck), origin_cpu_s:($org/$tck),
            wrk_cpu_s:($wrkt/$tck), gate_wait_s:$gw, sys_busy_pct:(100*$busy/$tot), steal_pct:(100*$steal/$tot),
            foreign_cpu_pct:(100*($busy - $sut - $org - $wrkt)/$tot)}' <<< "$json")
    echo "$line" >> "$OUT"
    jq -r '"r\(.round) \(.scenario)/\(.mix): \(.rps|floor) rps p50 \(.lat_p50_us)us p99 \(.lat_p99_us)us non2xx \(.err_status) cpu/req \((.sut_cpu_s*1e6/.requests)|floor)us foreign \(.foreign_cpu_pct|floor)%"' <<< "$line" >&2
  done
done
node "$HERE/summarize.mjs" "$OUT"

#!/usr/bin/env bash
# The edge side by side with the anchors of ../../../shared/anchors/proxy: same origin (origin-nginx), same wrk
# mixes, interleaved rounds, CPU per request of each server under test.
# usage: bench/proxy/run.sh [-s waf|off] [-m throughput|latency|both] [-r rounds] [-d seconds] [-o out.jsonl] [-g max_busy_pct] [-p]
#                         [-x "benign mixes"]
#   -s waf (the issue-7 comparison): the real daemon with the WAF on (cms + CRS PL1, 2 workers) and with the WAF off,
#          nginx + ModSecurity v3 + CRS (modsec), Apache + ModSecurity v2 + CRS (apache-modsec2), the plain nginx
#          proxy; mixes get, post and, for the WAFs, attack (SQLi, must be 403).
#   -s off (default; WAF off): bench/proxy/edge-server.ts (every non-rule check configured) in 1 process and 2
#          workers, the anchors' bare undici proxy (1 and 2 workers), the plain nginx proxy; mixes get, post.
#   -m both: throughput then latency (~240 req/s), on the same servers, one results file each.
#   -p: afterwards, profile.sh on the same build: where the WAF-on edge's CPU goes per request (get, then post).
#   -x: the benign mixes (default "get post"), e.g. -x "varied-get varied-post" (every request distinct, lua/ and
#       README.md "Varied traffic") or -x "get post varied-get varied-post"; the attack mix stays with the WAFs.
#   -g: before each run wait (at most GATE_MAX_WAIT s, default 120) until the machine is below that % busy.
#   Each run records foreign_cpu_pct (CPU used by anything but the server, the origin and wrk); summarize.mjs
#   leaves out runs above 15 % when enough undisturbed runs remain, and checks the run is valid (benign: no
#   non-2xx; attack: every response refused by every WAF).
# Needs nginx, wrk, jq, bc; -s waf also libnginx-mod-http-modsecurity, apache2, libapache2-mod-security2,
# modsecurity-crs (see README.md). Starts the anchors it needs through start-anchors.sh (unless running) and
# stops what it started, by pid. BENCH_REF=<git ref> builds that commit instead of the working tree; EDGE_ARGS adds
# daemon flags (daemon-edge.sh), EDGE_WORKERS sets --workers (default 2).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
ANCHORS="${ANCHORS:-$(cd "$REPO/../shared/anchors/proxy" 2>/dev/null && pwd || echo /work/shared/anchors/proxy)}"
. "$ANCHORS/lib.sh"
. "$HERE/mix-lua.sh"

SET=off MODE=throughput ROUNDS=3 DUR=10 OUT="" GATE="" GATE_MAX_WAIT="${GATE_MAX_WAIT:-120}" PROFILE=0 BENIGN="get post"
while getopts "s:m:r:d:o:g:px:" o; do case "$o" in
  s) SET="$OPTARG";; m) MODE="$OPTARG";; r) ROUNDS="$OPTARG";; d) DUR="$OPTARG";; o) OUT="$OPTARG";; g) GATE="$OPTARG";;
  p) PROFILE=1;; x) BENIGN="$OPTARG";; *) sed -n 4,24p "$0"; exit 2;; esac; done
case "$SET" in waf|off) ;; *) echo "-s waf|off, not $SET" >&2; exit 2;; esac
case "$MODE" in throughput|latency) MODES=("$MODE");; both) MODES=(throughput latency);; *) echo "-m throughput|latency|both, not $MODE" >&2; exit 2;; esac
[ -z "$OUT" ] || [ ${#MODES[@]} -eq 1 ] || { echo "-o needs one mode (-m both writes one file per mode)" >&2; exit 2; }
WORK="${BENCH_DIR:-/tmp/wafctl-bench-proxy}"
mkdir -p "$WORK/lua" "$WORK/pids" "$HERE/results"
TCK=$(getconf CLK_TCK)
STAMP=$(date +%Y%m%d-%H%M%S)

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

# --- servers -----------------------------------------------------------------------------------------------
if [ "$SET" = waf ]; then NEED=(origin-nginx nginx-proxy modsec modsec-resp apache-modsec2); else NEED=(origin-nginx nginx-proxy); fi
STARTED_ANCHORS=()
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
for a in "${NEED[@]}"; do
  if [ -z "$(server_pid "$a")" ] || ! kill -0 "$(server_pid "$a")" 2>/dev/null; then
    "$ANCHORS/start-anchors.sh" "$a" >&2; STARTED_ANCHORS+=("$a")
  fi
done

. "$HERE/build-dist.sh"
build_dist

# name|port|pid|mixes
SC=("nginx-proxy|$P_NGINX_PROXY|$(server_pid nginx-proxy)|$BENIGN")
if [ "$SET" = waf ]; then
  . "$HERE/daemon-edge.sh"
  start_daemon_edge edge-waf 28114 on
  start_daemon_edge edge-off 28117 off
  # modsec-resp: the same with SecResponseBodyAccess On (ModSecurity's recommended setting), like for like
  # with the edge, whose response inspection is on by default.
  SC+=("modsec|$P_MODSEC|$(server_pid modsec)|$BENIGN attack"
       "modsec-resp|$P_MODSEC_RESP|$(server_pid modsec-resp)|$BENIGN attack"
       "apache-modsec2|$P_APACHE_MODSEC2|$(server_pid apache-modsec2)|$BENIGN attack"
       "edge-waf|28114|$(cat "$WORK/pids/edge-waf.pid")|$BENIGN attack"
       "edge-off|28117|$(cat "$WORK/pids/edge-off.pid")|$BENIGN")
  WAFS=" modsec modsec-resp apache-modsec2 edge-waf "
else
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
  NODE_ARGS=(node "$WORK/dist/bench/proxy/edge-server.js")
  SITES_JSON="$SITES" WORKERS=1 start_bg edge 28110 "${NODE_ARGS[@]}"
  SITES_JSON="$SITES" WORKERS=2 start_bg edge-cluster2 28111 "${NODE_ARGS[@]}"
  UPSTREAM="http://127.0.0.1:$P_ORIGIN_NGINX" start_bg node-undici 28112 node "$WORK/node/proxy-undici.mjs"
  UPSTREAM="http://127.0.0.1:$P_ORIGIN_NGINX" WORKERS=2 start_bg node-undici-cluster2 28113 node "$WORK/node/cluster.mjs" "$WORK/node/proxy-undici.mjs"
  SC+=("edge|28110|$(cat "$WORK/pids/edge.pid")|$BENIGN" "edge-cluster2|28111|$(cat "$WORK/pids/edge-cluster2.pid")|$BENIGN"
       "node-undici|28112|$(cat "$WORK/pids/node-undici.pid")|$BENIGN"
       "node-undici-cluster2|28113|$(cat "$WORK/pids/node-undici-cluster2.pid")|$BENIGN")
  WAFS=" "
fi
ORIGIN_PID="$(server_pid origin-nginx)"

lua_for() { # mix mode
  local f="$WORK/lua/$1-$2.lua"
  mix_lua "$1" "$f"
  if [ "$2" = latency ]; then cat "$ANCHORS/lua/rate.lua" >> "$f"; fi
  echo "$f"
}

# Before anything is measured: every server answers the benign requests with 200, every WAF refuses the SQLi
# with 403 and the others pass it; then a warm-up (the engine's JIT, undici's pools).
UA='Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
for s in "${SC[@]}"; do IFS='|' read -r name port pid mixes <<< "$s"
  g=$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: www.example.com' -A "$UA" "http://127.0.0.1:$port/blog/?page=2&sort=date") || true
  p=$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: www.example.com' -A "$UA" --data 'comment=Nice+post&author=Jane' "http://127.0.0.1:$port/wp-comments-post.php") || true
  a=$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: www.example.com' -A "$UA" "http://127.0.0.1:$port/blog/?id=1%27%20OR%201%3D1--") || true
  want=200; [[ "$WAFS" == *" $name "* ]] && want=403
  [ "$g" = 200 ] && [ "$p" = 200 ] && [ "$a" = "$want" ] || { echo "$name answers GET $g, POST $p, SQLi $a (want 200, 200, $want)" >&2; exit 1; }
  for m in $mixes; do wrk -t2 -c50 -d3s -s "$(lua_for "$m" throughput)" "http://127.0.0.1:$port/" > /dev/null 2>&1 || true; done
done
echo "checked: benign 200 everywhere, SQLi 403 from$WAFS(build $COMMIT)" >&2

# The daemon's own view of latency: request_time of its access entries (head received -> response finished), so the
# edge's processing time can be told apart from wrk's and the kernel's queueing on a busy machine (latency mode).
access_bytes() { cat "$WORK/$1"/events/access-*.jsonl 2>/dev/null | wc -c; }
edge_latency() { # name bytes_before mix -> {"edge_p50_us":..,"edge_p99_us":..,"edge_entries":..} or {}
  local name="$1" before="$2" mix="$3" filter
  case "$mix" in get) filter='.method == "GET" and (.uri | test("spring-garden"))';; post|varied-post) filter='.method == "POST"';;
    varied-get) filter='.method == "GET"';; *) filter='(.uri | test("id=1"))';; esac
  sleep 1   # worker batches (10 ms) -> primary -> group commit
  # (fromjson? skips a line cut in half by the byte offset, should a write have been under way)
  cat "$WORK/$name"/events/access-*.jsonl | tail -c +"$((before + 1))" | jq -Rc "fromjson? | select($filter) | .request_time | numbers" | jq -cs "sort |
    if length == 0 then {} else {edge_entries: length, edge_p50_us: (.[(length * 0.5 | floor)] * 1e6 | round),
      edge_p99_us: (.[([(length * 0.99 | floor), length - 1] | min)] * 1e6 | round)} end"
}

measure() { # mode out
  local mode="$1" out="$2" threads conns cells=() n r i
  if [ "$mode" = latency ]; then threads=1 conns=5; else threads=2 conns=50; fi
  for s in "${SC[@]}"; do IFS='|' read -r name port pid mixes <<< "$s"; for m in $mixes; do cells+=("$name|$port|$pid|$m"); done; done
  n=${#cells[@]}
  echo "set=$SET mode=$mode rounds=$ROUNDS ${DUR}s wrk -t$threads -c$conns, $n cells -> $out" >&2
  for ((r = 1; r <= ROUNDS; r++)); do
    for ((i = 0; i < n; i++)); do
      IFS='|' read -r name port pid mix <<< "${cells[$(( (i + r - 1) % n ))]}"
      gw=$(gate)
      edge_log=""; [ "$mode" = latency ] && [ -d "$WORK/$name/events" ] && edge_log=$(access_bytes "$name")
      s0=$(tree_ticks "$pid"); o0=$(tree_ticks "$ORIGIN_PID"); read -r b0 st0 t0 < <(sys_ticks)
      res=$(/usr/bin/time -f '%U %S' -o "$WORK/wrk-time.txt" wrk -t"$threads" -c"$conns" -d"${DUR}s" --latency -s "$(lua_for "$mix" "$mode")" "http://127.0.0.1:$port/")
      read -r b1 st1 t1 < <(sys_ticks); s1=$(tree_ticks "$pid"); o1=$(tree_ticks "$ORIGIN_PID")
      read -r wu ws < "$WORK/wrk-time.txt"; wrk_ticks=$(echo "($wu + $ws) * $TCK / 1" | bc)
      json=$(grep '^JSON:' <<< "$res" | sed 's/^JSON://') || { echo "wrk failed: $res" >&2; continue; }
      waf=false; [[ "$WAFS" == *" $name "* ]] && waf=true
      line=$(jq -c --arg mode "$mode" --arg set "$SET" --arg sc "$name" --arg mix "$mix" --argjson round "$r" --argjson waf "$waf" \
        --arg build "$COMMIT" --arg eargs "${EDGE_ARGS:-}" --argjson sut "$(( s1 - s0 ))" --argjson org "$(( o1 - o0 ))" --argjson tck "$TCK" \
        --argjson busy "$(( b1 - b0 ))" --argjson steal "$(( st1 - st0 ))" --argjson tot "$(( t1 - t0 ))" \
        --argjson wrkt "$wrk_ticks" --argjson gw "$gw" --arg at "$(date -u +%FT%TZ)" \
        '. + {mode:$mode, set:$set, scenario:$sc, mix:$mix, round:$round, waf:$waf, build:$build, edge_args:$eargs, at:$at,
              sut_cpu_s:($sut/$tck), origin_cpu_s:($org/$tck), wrk_cpu_s:($wrkt/$tck), gate_wait_s:$gw,
              sys_busy_pct:(100*$busy/$tot), steal_pct:(100*$steal/$tot),
              foreign_cpu_pct:(100*($busy - $sut - $org - $wrkt)/$tot)}' <<< "$json")
      if [ -n "$edge_log" ]; then
        own=$(edge_latency "$name" "$edge_log" "$mix") || own='{}'
        with=$(jq -c --argjson e "${own:-{\}}" '. + $e' <<< "$line") && line="$with"
      fi
      echo "$line" >> "$out"
      jq -r '"r\(.round) \(.scenario)/\(.mix): \(.rps|floor) rps p50 \(.lat_p50_us)us p99 \(.lat_p99_us)us non2xx \(.err_status) cpu/req \((.sut_cpu_s*1e6/.requests)|floor)us foreign \(.foreign_cpu_pct|floor)%\(if .edge_p50_us then " (edge itself: p50 \(.edge_p50_us)us p99 \(.edge_p99_us)us)" else "" end)"' <<< "$line" >&2
    done
  done
}

OUTS=()
for mode in "${MODES[@]}"; do
  out="${OUT:-$HERE/results/$( [ "$SET" = waf ] && echo waf- )$mode-$STAMP.jsonl}"
  measure "$mode" "$out"; OUTS+=("$out")
done
for out in "${OUTS[@]}"; do echo; echo "== $out"; node "$HERE/summarize.mjs" "$out"; done
if [ "$PROFILE" = 1 ]; then
  for mix in $BENIGN; do echo; echo "== profile, $mix mix"; SKIP_BUILD=1 "$HERE/profile.sh" -x "$mix" -d "$(( DUR > 15 ? DUR : 15 ))"; done
fi

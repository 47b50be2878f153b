#!/usr/bin/env bash
# Response inspection beside nginx + ModSecurity v3 doing the same: an nginx origin serving HTML pages
# of 20-200 KB (five sizes, each identity and gzip: lua/mix-html-pages.lua), and four servers in front of it:
#   edge-resp-on   the real daemon (2 workers, CRS 3.3.4 PL1, site www.example.com, response inspection on: default)
#   edge-resp-off  the same, `wafctl site set --response-inspection off`
#   modsec-resp    nginx + ModSecurity v3 + CRS 3.3.4 PL1, the anchors' config with SecResponseBodyAccess On
#                  (text/plain text/html text/xml, 512 KB, ProcessPartial)
#   modsec         the same with SecResponseBodyAccess Off (the anchors' main modsec)
# wrk -t2 -c50 per cell, interleaved rounds (order rotated each round); CPU per request = the server's process tree
# (daemon primary + workers, nginx master + workers) / requests. The origin is not counted.
# usage: bench/proxy/response-anchor.sh [rounds 3] [seconds 8]   RA_DIR (default /tmp/response-anchor), RA_PORT
# (default 28300: origin +0, modsec-resp +1, modsec +2, edges +10 and +20 with +1 TLS, +2 API). Builds nothing:
# run `npm run build` first (the edge runs dist/).
set -euo pipefail
ROUNDS=${1:-3} DUR=${2:-8}
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd); HERE=$REPO/bench/proxy; ANCHORS=/work/shared/anchors/proxy
DIR=${RA_DIR:-/tmp/response-anchor} BASE=${RA_PORT:-28300}
export PERF_RUN_DIR=$DIR
. "$ANCHORS/lib.sh"
P_ORIGIN_NGINX=$BASE
WORK=$DIR; mkdir -p "$DIR/pids" "$DIR/www"
rm -rf "$DIR/dist"; ln -s "$REPO/dist" "$DIR/dist"
. "$HERE/daemon-edge.sh"
OUT=${OUT:-$HERE/results/response-anchor-$(date +%Y%m%d-%H%M%S).jsonl}

# The pages: the same generator as response-pages.ts (a shop listing), gzip -6 beside each.
node -e '
const fs = require("fs"), zlib = require("zlib");
for (const [i, kb] of [20, 50, 100, 150, 200].entries()) {
  let out = "<!doctype html><html><head><title>Shop</title></head><body>\n";
  for (let j = 0; out.length < kb * 1024; j++) out += `<div class="item i${(j + i) % 11}"><a href="/p/${j}">Product ${j}</a> <span>${(j * 7) % 100}.99</span> in stock</div>\n`;
  const page = Buffer.from(out.slice(0, kb * 1024) + "</body></html>");
  fs.writeFileSync(`${process.argv[1]}/p${kb}.html`, page);
  fs.writeFileSync(`${process.argv[1]}/p${kb}.html.gz`, zlib.gzipSync(page, { level: 6 }));
}' "$DIR/www"

render() { # template out port upstream rba
  PREFIX="$3" PORT="$4" UP="$5" RBA="$6" M="$NGINX_MODULES" CRS="$CRS_RULES" W="$NGINX_WORKERS" perl -pe '
    s/\@PREFIX\@/$ENV{PREFIX}/g; s/\@PORT\@/$ENV{PORT}/g; s/\@UPSTREAM_PORT\@/$ENV{UP}/g; s/\@WORKERS\@/$ENV{W}/g;
    s/\@RESPONSE_BODY_ACCESS\@/$ENV{RBA}/g; s/\@NGINX_MODULES\@/$ENV{M}/g; s/\@CRS_RULES\@/$ENV{CRS}/g' "$1" > "$2"
}
start_nginx_at() { # name port conf-writer...
  local name=$1 port=$2 prefix=$DIR/nginx-$1; shift 2
  mkdir -p "$prefix"/{conf,logs,tmp}; chmod 0777 "$prefix/tmp" "$prefix/logs"
  render "$ANCHORS/conf/nginx-common.inc.in" "$prefix/conf/nginx-common.inc" "$prefix" "$port" "" Off
  "$@" "$prefix" "$port"
  nginx -q -t -p "$prefix" -c "$prefix/conf/nginx.conf" -e "$prefix/logs/error.log"
  nginx -p "$prefix" -c "$prefix/conf/nginx.conf" -e "$prefix/logs/error.log"
  for _ in $(seq 50); do [ -s "$prefix/nginx.pid" ] && break; sleep 0.1; done
  cp "$prefix/nginx.pid" "$DIR/pids/$name.pid"
}
origin_conf() { # static pages; .gz served as gzip-encoded text/html (no gzip_static: the same bytes every time)
  cat > "$1/conf/nginx.conf" <<NGX
worker_processes $NGINX_WORKERS; pid $1/nginx.pid; error_log $1/logs/error.log warn;
events { worker_connections 4096; }
http {
    include $1/conf/nginx-common.inc;
    server {
        listen 127.0.0.1:$2 backlog=4096 reuseport;
        root $DIR/www;
        location ~ \.gz\$ { types { } default_type "text/html; charset=utf-8"; add_header Content-Encoding gzip; }
        location / { types { } default_type "text/html; charset=utf-8"; }
    }
}
NGX
}
modsec_conf() { # rba prefix port: the anchors' nginx + ModSecurity config, this origin
  render "$ANCHORS/conf/nginx-modsec.conf.in" "$2/conf/nginx.conf" "$2" "$3" "$P_ORIGIN_NGINX" "$1"
  render "$ANCHORS/conf/modsecurity.conf.in" "$2/conf/modsecurity.conf" "$2" "$3" "$P_ORIGIN_NGINX" "$1"
  cp "$ANCHORS/conf/crs-setup.conf" "$2/conf/crs-setup.conf"
}
stop_all() {
  for f in "$DIR"/pids/*.pid; do [ -f "$f" ] || continue; kill -TERM "$(cat "$f")" 2>/dev/null || true; rm -f "$f"; done
}
trap stop_all EXIT

start_nginx_at origin "$BASE" origin_conf
start_nginx_at modsec-resp "$((BASE + 1))" modsec_conf On
start_nginx_at modsec "$((BASE + 2))" modsec_conf Off
start_daemon_edge edge-resp-on "$((BASE + 10))" on
start_daemon_edge edge-resp-off "$((BASE + 20))" on
daemon_cli edge-resp-off site set www.example.com --response-inspection off > /dev/null

# Every server must answer every page with 200 and the origin's bytes; a leak page must be refused by the inspecting
# ones. ModSecurity-nginx decides phase 4 after nginx has sent the headers: it cannot send a 403 then and cuts the
# connection (curl: 000); the edge holds the page back and answers 403.
for port in $((BASE + 1)) $((BASE + 2)) $((BASE + 10)) $((BASE + 20)); do
  for p in p20.html p200.html.gz; do
    got=$(curl -s -H 'Host: www.example.com' "http://127.0.0.1:$port/$p" | sha256sum); want=$(sha256sum < "$DIR/www/$p")
    [ "$got" = "$want" ] || { echo "port $port: /$p differs from the origin's" >&2; exit 1; }
  done
done
printf '<html><body>You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax</body></html>' > "$DIR/www/leak.html"
for cell in "$((BASE + 1))|000 403" "$((BASE + 10))|403"; do
  port=${cell%|*}; s=$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: www.example.com' "http://127.0.0.1:$port/leak.html" || true)
  [[ " ${cell#*|} " == *" $s "* ]] || { echo "port $port: the SQL error page got $s, not ${cell#*|}" >&2; exit 1; }
done

LUA=$DIR/html-pages.lua; cat "$HERE/lua/mix-html-pages.lua" "$ANCHORS/lua/report.lua" > "$LUA"
CELLS=("edge-resp-on|$((BASE + 10))" "edge-resp-off|$((BASE + 20))" "modsec-resp|$((BASE + 1))" "modsec|$((BASE + 2))")
TCK=$(getconf CLK_TCK)
for c in "${CELLS[@]}"; do wrk -t2 -c50 -d3s -s "$LUA" "http://127.0.0.1:${c#*|}/" > /dev/null; done
for r in $(seq "$ROUNDS"); do
  for i in $(seq 0 $((${#CELLS[@]} - 1))); do
    IFS='|' read -r name port <<< "${CELLS[$(( (i + r - 1) % ${#CELLS[@]} ))]}"
    pid=$(cat "$DIR/pids/$name.pid"); s0=$(tree_ticks "$pid"); read -r b0 _ t0 < <(sys_ticks)
    json=$(wrk -t2 -c50 -d"${DUR}s" --latency -s "$LUA" "http://127.0.0.1:$port/" | grep '^JSON:' | sed 's/^JSON://')
    s1=$(tree_ticks "$pid"); read -r b1 _ t1 < <(sys_ticks)
    line=$(jq -c --arg sc "$name" --argjson round "$r" --argjson cpu "$(( s1 - s0 ))" --argjson tck "$TCK" \
      --argjson busy "$(( 100 * (b1 - b0) / (t1 - t0) ))" --arg load "$(cut -d' ' -f1 /proc/loadavg)" --arg at "$(date -Is)" \
      '. + {scenario:$sc, round:$round, at:$at, sut_cpu_s:($cpu/$tck), cpu_us_per_req:(1e6*$cpu/$tck/.requests), sys_busy_pct:$busy, load:$load}' <<< "$json")
    echo "$line" >> "$OUT"
    jq -r '"r\(.round) \(.scenario): \(.rps|floor) req/s, \(.cpu_us_per_req|floor) us CPU/req, p50 \(.lat_p50_us) us, non2xx \(.err_status), load \(.load)"' <<< "$line" >&2
  done
done
# Medians per scenario.
jq -rs 'group_by(.scenario)[] | (map(.cpu_us_per_req) | sort) as $c | (map(.rps) | sort) as $q |
  "\(.[0].scenario): median \($q[length/2|floor]|floor) req/s, \($c[length/2|floor]|floor) us CPU/req (\(length) runs)"' "$OUT"
echo "$OUT"

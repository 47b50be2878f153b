# Sourced by run.sh and profile.sh: the real daemon (compiled to $WORK/dist) as the edge under test.
# start_daemon_edge NAME EDGE_PORT WAF_MODE [node flags...]
#   Starts `node dist/daemon/main.js --foreground --workers $EDGE_WORKERS` (default 2, node:cluster as
#   the daemon runs it) with its own data dir $WORK/NAME, CRS from $CRS_DIR (default the Debian package)
#   on ports EDGE_PORT (HTTP), +1 (HTTPS), +2 (API); adds the site www.example.com -> origin-nginx with
#   `wafctl site add` over the admin socket; WAF_MODE off|detect is set by editing config.json and
#   `wafctl daemon reload` (no CLI command sets the mode yet). The pid goes to $WORK/pids/NAME.pid.
#   EDGE_ARGS adds daemon flags, e.g. EDGE_ARGS="--edge-shed-loop-delay-ms 0" (no load shedding on event-loop delay,
#   which a machine busy with other work triggers: benign requests then get 503 and the run is invalid).
# Needs: WORK (with dist/ built), REPO, P_ORIGIN_NGINX.

daemon_cli() { # NAME args...: the CLI against that daemon, with a sandboxed HOME (no login profile written to ~)
  local name="$1"; shift
  HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home/.config" WAFCTL_DATA_DIR="$WORK/$name" node "$WORK/dist/cli/main.js" "$@"
}

start_daemon_edge() {
  local name="$1" port="$2" mode="$3"; shift 3
  local data="$WORK/$name"
  rm -rf "$data"; mkdir -p "$data" "$WORK/home"
  ( cd "$WORK" && exec env WAFCTL_DATA_DIR="$data" node "$@" "$WORK/dist/daemon/main.js" --foreground \
      --workers "${EDGE_WORKERS:-2}" --crs-dir "${CRS_DIR:-/usr/share/modsecurity-crs}" \
      --edge-port "$port" --edge-tls-port "$((port + 1))" --api-port "$((port + 2))" ${EDGE_ARGS:-} > "$WORK/$name.log" 2>&1 ) &
  echo $! > "$WORK/pids/$name.pid"
  for _ in $(seq 600); do grep -q 'daemon ready' "$WORK/$name.log" 2>/dev/null && break
    kill -0 "$(cat "$WORK/pids/$name.pid")" 2>/dev/null || break; sleep 0.1; done
  grep -q 'daemon ready' "$WORK/$name.log" || { echo "$name did not start: $(cat "$WORK/$name.log")" >&2; return 1; }
  daemon_cli "$name" site add www.example.com --origin "http://127.0.0.1:$P_ORIGIN_NGINX" > /dev/null 2>&1 \
    || { echo "$name: site add failed" >&2; return 1; }
  if [ "$mode" != on ]; then
    jq --arg m "$mode" '(.sites[] | select(.domain == "www.example.com") | .protection.waf.mode) = $m' "$data/config.json" > "$data/config.json.new"
    chmod 600 "$data/config.json.new"; mv "$data/config.json.new" "$data/config.json"
    daemon_cli "$name" daemon reload > /dev/null 2>&1 || { echo "$name: reload failed" >&2; return 1; }
  fi
  local crs; crs=$(daemon_cli "$name" --json daemon status | jq -r '.crs.found')
  [ "$crs" = true ] || { echo "$name: the daemon found no Core Rule Set under ${CRS_DIR:-/usr/share/modsecurity-crs}" >&2; return 1; }
  echo "started $name (daemon pid $(cat "$WORK/pids/$name.pid"), ${EDGE_WORKERS:-2} workers, WAF $mode${EDGE_ARGS:+, $EDGE_ARGS}) on $port" >&2
}

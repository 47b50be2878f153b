#!/usr/bin/env bash
# A throwaway Redis from Debian's redis-server, for tests: a free loopback port, no persistence,
# its pid and log in DIR.
#   scripts/test-services/redis.sh start DIR   prints redis://127.0.0.1:PORT
#   scripts/test-services/redis.sh stop DIR
set -euo pipefail
cmd=${1:?usage: redis.sh start|stop DIR}
dir=${2:?usage: redis.sh start|stop DIR}
here=$(cd "$(dirname "$0")" && pwd)
command -v redis-server >/dev/null || { echo "redis.sh: no redis-server (apt-get install redis-server)" >&2; exit 1; }

case "$cmd" in
  start)
    mkdir -p "$dir"
    for attempt in 1 2 3 4 5; do
      port=$("$here/free-port.sh")
      redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" \
        --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
      # daemonize returns before the port is bound: wait for PING (bounded by tries).
      for _ in $(seq 1 100); do
        if redis-cli -p "$port" ping 2>/dev/null | grep -q PONG; then
          echo "$port" >"$dir/port"
          echo "redis://127.0.0.1:$port"
          exit 0
        fi
        sleep 0.1
      done
      echo "redis.sh: start on port $port failed (attempt $attempt), retrying on another port" >&2
      [ -f "$dir/redis.pid" ] && kill "$(cat "$dir/redis.pid")" 2>/dev/null || true
    done
    exit 1
    ;;
  stop)
    [ -f "$dir/redis.pid" ] || exit 0
    pid=$(cat "$dir/redis.pid")
    kill "$pid" 2>/dev/null || true
    # Wait until it is gone (bounded), so a caller that removes DIR next does not pull it from under it.
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    rm -f "$dir/redis.pid"
    ;;
  *) echo "usage: redis.sh start|stop DIR" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# A throwaway Redis from Debian's redis-server, for tests: a free loopback port, no persistence,
# its pid and log in DIR.
#   scripts/test-services/redis.sh start DIR   prints redis://127.0.0.1:PORT
#   scripts/test-services/redis.sh stop DIR
#   scripts/test-services/redis.sh restart DIR  stops it and starts an empty one on the same port
set -euo pipefail
cmd=${1:?usage: redis.sh start|stop|restart DIR}
dir=${2:?usage: redis.sh start|stop|restart DIR}
here=$(cd "$(dirname "$0")" && pwd)
command -v redis-server >/dev/null || { echo "redis.sh: no redis-server (apt-get install redis-server)" >&2; exit 1; }
# WAFCTL_REDIS_NETNS=NAME WAFCTL_REDIS_LISTEN=ADDR: in network namespace NAME on ADDR port 6379.
listen=${WAFCTL_REDIS_LISTEN:-127.0.0.1}
netns=${WAFCTL_REDIS_NETNS:-}
in_ns() { if [ -n "$netns" ]; then ip netns exec "$netns" "$@"; else "$@"; fi; }
# Off loopback Redis refuses clients without a password (protected mode); the namespace's address
# is reachable from this host only, so the throwaway server drops it there.
protected=yes
[ "$listen" != 127.0.0.1 ] && protected=no

case "$cmd" in
  start)
    mkdir -p "$dir"
    for attempt in 1 2 3 4 5; do
      if [ -n "$netns" ]; then port=6379; else port=$("$here/free-port.sh"); fi
      in_ns redis-server --port "$port" --bind "$listen" --save '' --appendonly no --protected-mode "$protected" --dir "$dir" \
        --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
      # daemonize returns before the port is bound: wait for PING (bounded by tries).
      for _ in $(seq 1 100); do
        if in_ns redis-cli -h "$listen" -p "$port" ping 2>/dev/null | grep -q PONG; then
          echo "$port" >"$dir/port"
          echo "redis://$listen:$port"
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
  restart)
    port=$(cat "$dir/port")
    "$0" stop "$dir"
    in_ns redis-server --port "$port" --bind "$listen" --save '' --appendonly no --protected-mode "$protected" --dir "$dir" \
      --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
    for _ in $(seq 1 100); do
      in_ns redis-cli -h "$listen" -p "$port" ping 2>/dev/null | grep -q PONG && exit 0
      sleep 0.1
    done
    echo "redis.sh: restart on port $port failed" >&2
    exit 1
    ;;
  *) echo "usage: redis.sh start|stop|restart DIR" >&2; exit 2 ;;
esac

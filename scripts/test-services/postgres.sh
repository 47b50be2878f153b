#!/usr/bin/env bash
# A throwaway PostgreSQL from Debian's binaries, for tests and benchmarks: a fresh cluster in DIR on a
# free loopback port, trust authentication, no other socket than 127.0.0.1 and one in DIR.
#   scripts/test-services/postgres.sh start DIR   prints postgres://postgres@127.0.0.1:PORT/postgres
#   scripts/test-services/postgres.sh stop DIR    stops it (DIR stays; remove it yourself)
# Debian's package does not start a server here (no init system), and PostgreSQL refuses to run as
# root: as root the cluster belongs to the `postgres` user and every command goes through runuser.
set -euo pipefail
cmd=${1:?usage: postgres.sh start|stop DIR}
dir=${2:?usage: postgres.sh start|stop DIR}
here=$(cd "$(dirname "$0")" && pwd)
bin=${WAFCTL_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
[ -x "$bin/pg_ctl" ] || { echo "postgres.sh: no PostgreSQL binaries (apt-get install postgresql)" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
  start)
    mkdir -p "$dir"
    # postgres must be able to reach DIR: mktemp's 0700 would lock it out when root made it.
    chmod 755 "$dir"
    if [ "$(id -u)" = 0 ] && ! runuser -u postgres -- test -x "$dir"; then
      echo "postgres.sh: user postgres cannot reach $dir: make its parent directories searchable (chmod 755)" >&2; exit 1
    fi
    if [ "$(id -u)" = 0 ]; then install -d -o postgres -m 700 "$dir/data" "$dir/socket"; else install -d -m 700 "$dir/data" "$dir/socket"; fi
    as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    for attempt in 1 2 3 4 5; do
      port=$("$here/free-port.sh")
      # fsync off: a test server's data never has to survive a power cut, and the box is shared.
      if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" -w -t 60 \
          -o "-p $port -k $dir/socket -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null; then
        echo "$port" >"$dir/port"
        echo "postgres://postgres@127.0.0.1:$port/postgres"
        exit 0
      fi
      echo "postgres.sh: start on port $port failed (attempt $attempt), retrying on another port" >&2
      tail -5 "$dir/data/server.log" >&2 || true
    done
    exit 1
    ;;
  stop)
    [ -f "$dir/data/postmaster.pid" ] || exit 0
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  *) echo "usage: postgres.sh start|stop DIR" >&2; exit 2 ;;
esac

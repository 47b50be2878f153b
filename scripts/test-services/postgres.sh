#!/usr/bin/env bash
# A throwaway PostgreSQL from Debian's binaries, for tests and benchmarks: a fresh cluster in DIR on a
# free loopback port, trust authentication, no other socket than 127.0.0.1 and one in DIR.
#   scripts/test-services/postgres.sh start DIR   prints postgres://postgres@127.0.0.1:PORT/postgres
#   scripts/test-services/postgres.sh stop DIR    stops it (DIR stays; remove it yourself)
#   scripts/test-services/postgres.sh resume DIR  starts the stopped server of DIR again, same port
# Debian's package does not start a server here (no init system), and PostgreSQL refuses to run as
# root: as root the cluster belongs to the `postgres` user and every command goes through runuser.
# WAFCTL_PG_NETNS=NAME WAFCTL_PG_LISTEN=ADDR: the server runs in network namespace NAME
# (scripts/test-services/netns.sh), listening on ADDR port 5432 (the namespace's own ports are free).
set -euo pipefail
cmd=${1:?usage: postgres.sh start|stop DIR}
dir=${2:?usage: postgres.sh start|stop DIR}
here=$(cd "$(dirname "$0")" && pwd)
bin=${WAFCTL_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
[ -x "$bin/pg_ctl" ] || { echo "postgres.sh: no PostgreSQL binaries (apt-get install postgresql)" >&2; exit 1; }

listen=${WAFCTL_PG_LISTEN:-127.0.0.1}
netns=${WAFCTL_PG_NETNS:-}
as_owner() {
  local prefix=()
  [ -n "$netns" ] && prefix=(ip netns exec "$netns")
  if [ "$(id -u)" = 0 ]; then "${prefix[@]}" runuser -u postgres -- "$@"; else "${prefix[@]}" "$@"; fi
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
    # In a namespace the clients come over its link: trust that subnet too (only this host is on it).
    if [ -n "$netns" ]; then as_owner sh -c "echo 'host all all samenet trust' >> '$dir/data/pg_hba.conf'"; fi
    for attempt in 1 2 3 4 5; do
      if [ -n "$netns" ]; then port=5432; else port=$("$here/free-port.sh"); fi
      # fsync off: a test server's data never has to survive a power cut, and the box is shared.
      if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" -w -t 60 \
          -o "-p $port -k $dir/socket -c listen_addresses=$listen -c fsync=off -c max_connections=200" start >/dev/null; then
        echo "$port" >"$dir/port"
        echo "postgres://postgres@$listen:$port/postgres"
        exit 0
      fi
      echo "postgres.sh: start on port $port failed (attempt $attempt), retrying on another port" >&2
      tail -5 "$dir/data/server.log" >&2 || true
    done
    exit 1
    ;;
  resume)
    # The stopped server of DIR again, on its port (a restart after `stop`).
    port=$(cat "$dir/port")
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" -w -t 60 \
      -o "-p $port -k $dir/socket -c listen_addresses=$listen -c fsync=off -c max_connections=200" start >/dev/null
    ;;
  stop)
    [ -f "$dir/data/postmaster.pid" ] || exit 0
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  *) echo "usage: postgres.sh start|stop|resume DIR" >&2; exit 2 ;;
esac

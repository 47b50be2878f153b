#!/usr/bin/env bash
# A network namespace joined to this host by one veth link, for tests that cut a link for real
# (a partition: packets dropped, no RST) rather than through a relay. Needs root (CAP_NET_ADMIN);
# callers skip when `up` fails.
#   scripts/test-services/netns.sh up NAME N      creates NAME; host side 10.254.N.1/30, NAME's side
#                                                 10.254.N.2/30 (N 1-254); prints 10.254.N.2
#   scripts/test-services/netns.sh link NAME up|down   the host side of the link
#   scripts/test-services/netns.sh down NAME      deletes NAME (its end of the link goes with it)
# Processes started with `ip netns exec NAME ...` live in NAME and are reached at 10.254.N.2.
set -euo pipefail
cmd=${1:?usage: netns.sh up NAME N | link NAME up|down | down NAME}
name=${2:?usage: netns.sh up NAME N | link NAME up|down | down NAME}
# Interface names are at most 15 bytes: a short hash of NAME.
tag=$(printf '%s' "$name" | cksum | cut -c1-8)
host_if="wh$tag"
ns_if="wn$tag"

case "$cmd" in
  up)
    n=${3:?usage: netns.sh up NAME N}
    ip netns add "$name"
    ip link add "$host_if" type veth peer name "$ns_if"
    ip link set "$ns_if" netns "$name"
    ip addr add "10.254.$n.1/30" dev "$host_if"
    ip link set "$host_if" up
    ip netns exec "$name" ip addr add "10.254.$n.2/30" dev "$ns_if"
    ip netns exec "$name" ip link set "$ns_if" up
    ip netns exec "$name" ip link set lo up
    echo "10.254.$n.2"
    ;;
  link)
    state=${3:?usage: netns.sh link NAME up|down}
    ip link set "$host_if" "$state"
    ;;
  down)
    ip netns del "$name" 2>/dev/null || true
    ip link del "$host_if" 2>/dev/null || true
    ;;
  *) echo "usage: netns.sh up NAME N | link NAME up|down | down NAME" >&2; exit 2 ;;
esac

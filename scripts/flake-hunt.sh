#!/usr/bin/env bash
# Hunts flaky tests the way CI would meet them: a fresh clone of HEAD (in a 0700 temp dir, as CI's
# folder may be), `npm ci`, then `npm test` ROUNDS times in one of three modes, as this user or as
# another one. Prints each round's closing line and the failed tests, and keeps the logs.
#
#   scripts/flake-hunt.sh [--rounds N] [--mode plain|shuffle|load] [--shuffle] [--user NAME] [--keep]
#
# plain: file order, as CI runs it. shuffle: `vitest run --sequence.shuffle` with a new seed each
# round (printed, so a failure can be replayed with --sequence.seed=SEED). load: one busy loop
# pinned on each core for the whole round (scripts/busy-loops.sh). --shuffle shuffles in any mode, so
# `--mode load --shuffle` meets both at once. Each round's line ends with the load average at its
# end. --user runs the clone and the tests as that (ordinary) user, created if missing (needs root).
# test/README.md says what to do with what it finds.
set -euo pipefail
rounds=3 mode=plain user='' keep=0 shuffle=0
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --mode) mode=$2; shift 2 ;;
    --user) user=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --shuffle) shuffle=1; shift ;;
    *) echo "usage: $0 [--rounds N] [--mode plain|shuffle|load] [--shuffle] [--user NAME] [--keep]" >&2; exit 2 ;;
  esac
done
case "$mode" in plain|load) ;; shuffle) shuffle=1 ;; *) echo "unknown mode $mode" >&2; exit 2 ;; esac

repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/wafctl-flake-hunt.XXXXXX)   # 0700, like a private CI folder
as_user() { if [ -n "$user" ]; then runuser -u "$user" -- env HOME="$work" "$@"; else "$@"; fi; }
if [ -n "$user" ]; then
  id "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
  chown "$user" "$work"
fi
loops=''
# Stopped mid-round too: the busy loops go with it (busy-loops.sh kills its own on TERM).
cleanup() { [ -n "$loops" ] && kill "$loops" 2>/dev/null; [ "$keep" = 1 ] || rm -rf "$work"; }
trap cleanup EXIT

# Cloned by this user (git refuses another user's repository), then handed to the test user.
git clone -q "$repo" "$work/clone"
[ -n "$user" ] && chown -R "$user" "$work/clone"
# The clone sits beside a copy of ../shared, as CI lays it out.
[ -d "$repo/../shared" ] && ln -s "$(cd "$repo/../shared" && pwd)" "$work/shared"
cd "$work/clone"
as_user npm ci --no-audit --no-fund >"$work/npm-ci.log" 2>&1 || { echo "npm ci failed: $work/npm-ci.log"; keep=1; exit 1; }

failed_rounds=0
for ((round = 1; round <= rounds; round++)); do
  log="$work/round-$round.log"
  extra=()
  [ "$shuffle" = 1 ] && { seed=$RANDOM$RANDOM; extra=(-- --sequence.shuffle "--sequence.seed=$seed"); }
  loops=''
  if [ "$mode" = load ]; then "$repo/scripts/busy-loops.sh" 3600 & loops=$!; fi
  started=$(date +%s)
  status=0
  as_user npm test "${extra[@]}" >"$log" 2>&1 || status=$?
  [ -n "$loops" ] && { pkill -P "$loops" || true; kill "$loops" 2>/dev/null || true; wait "$loops" 2>/dev/null || true; }
  summary=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -1 || true)
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  echo "round $round/$rounds ($mode${seed:+, seed $seed}${user:+, as $user}): exit $status, $((($(date +%s) - started))) s, load $load at the end: ${summary:-no summary line}"
  if [ "$status" != 0 ]; then
    failed_rounds=$((failed_rounds + 1)); keep=1
    sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^ FAIL ' | sort -u | sed 's/^/    /'
  fi
done
if [ "$keep" = 1 ]; then echo "$failed_rounds of $rounds rounds failed; logs in $work"; else echo "$failed_rounds of $rounds rounds failed"; fi
[ "$failed_rounds" = 0 ]

#!/usr/bin/env bash
# Installs the SQLite anchor (better-sqlite3, built from source with node-gyp) outside the
# repository: the anchor's dependencies must never enter the project's package.json.
#   bench/events/setup-anchor.sh [DIR]      (default $EVENTS_ANCHOR_DIR or /tmp/events-anchor-deps)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="${1:-${EVENTS_ANCHOR_DIR:-/tmp/events-anchor-deps}}"
mkdir -p "$dir"
cp -r "$here/anchor/." "$dir/"
cd "$dir"
# npm 11 skips dependency install scripts unless approved: anchor/package.json lists
# better-sqlite3 under allowScripts.
npm ci --no-audit --no-fund
node -e "require('better-sqlite3')(':memory:').prepare('select 1').get()"
echo "anchor ready in $dir"

#!/usr/bin/env bash
# Fetches the Atomic Edge WordPress plugin (third-party, GPL: never vendored here) at the release the
# daemon's plugin dialect was built for, for test/wp-plugin/plugin-run.test.ts:
#   scripts/fetch-wp-plugin.sh [DIR]      (default /tmp/atomicedge-wordpress)
#   WAFCTL_WP_PLUGIN_DIR=DIR npx vitest run test/wp-plugin/plugin-run.test.ts
# Needs git and access to GitHub (CI has neither network nor the plugin, so the test skips there).
set -euo pipefail

REPO=https://github.com/stardothosting/atomicedge-wordpress.git
COMMIT=51698434475ffc5b7769f452bbaeee1a46a9ce57   # release 1.2.0
DIR=${1:-/tmp/atomicedge-wordpress}

if [ -e "$DIR" ] && [ -n "$(ls -A "$DIR" 2>/dev/null)" ]; then
  echo "fetch-wp-plugin: $DIR exists and is not empty; give another DIR or remove it" >&2
  exit 1
fi
git init -q "$DIR"
git -C "$DIR" remote add origin "$REPO"
# A single commit, not the history (GitHub serves any reachable commit by its id).
git -C "$DIR" fetch -q --depth 1 origin "$COMMIT"
git -C "$DIR" checkout -q --detach FETCH_HEAD
echo "atomicedge-wordpress $COMMIT in $DIR"
echo "run: WAFCTL_WP_PLUGIN_DIR=$DIR npx vitest run test/wp-plugin/plugin-run.test.ts"

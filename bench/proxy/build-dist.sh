# Sourced by run.sh and profile.sh: compiles the repo to $WORK/dist with its data files (rule .conf, .data lists),
# as the daemon runs from dist/ (tsx's on-the-fly transform adds per-closure helpers). SKIP_BUILD=1 reuses the last
# build; BENCH_REF=<git ref> builds that commit (git archive) instead of the working tree, e.g. while others have
# work in progress. Sets COMMIT (short hash, "+worktree" when daemon/ or shared/ have uncommitted changes).
# Needs: WORK, REPO.
build_dist() {
  if [ "${SKIP_BUILD:-0}" != 1 ]; then
    local src="$REPO"
    if [ -n "${BENCH_REF:-}" ]; then
      src="$WORK/src"; rm -rf "$src"; mkdir -p "$src"
      git -C "$REPO" archive "$BENCH_REF" | tar -x -C "$src"; ln -sfn "$REPO/node_modules" "$src/node_modules"
    fi
    echo "compiling ${BENCH_REF:-the working tree} to $WORK/dist ..." >&2
    rm -rf "$WORK/dist"
    (cd "$src" && "$REPO/node_modules/.bin/tsc" -p tsconfig.json --outDir "$WORK/dist" --incremental false > "$WORK/tsc.log" 2>&1) || true
    (cd "$src" && find daemon cli shared -type f ! -name '*.ts' ! -name '*.tsx' ! -name '*.md' -exec cp --parents {} "$WORK/dist/" \;)
    local commit; commit="$(git -C "$REPO" rev-parse --short "${BENCH_REF:-HEAD}")"
    [ -z "${BENCH_REF:-}" ] && [ -n "$(git -C "$REPO" status --porcelain -- daemon shared)" ] && commit="$commit+worktree"
    echo "$commit" > "$WORK/dist/.commit"
  fi
  [ -f "$WORK/dist/bench/proxy/edge-server.js" ] && [ -f "$WORK/dist/daemon/main.js" ] || { echo "tsc emitted nothing: $(tail "$WORK/tsc.log")" >&2; return 1; }
  ln -sfn "$REPO/node_modules" "$WORK/dist/node_modules"
  COMMIT="$(cat "$WORK/dist/.commit" 2>/dev/null || echo unknown)"
}

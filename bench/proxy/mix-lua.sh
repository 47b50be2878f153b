# Sourced by run.sh, ab-edge.sh, profile.sh and varied-check.sh: which wrk Lua files make up a mix, in order.
# mix_lua_files MIX -> the file list (browser headers, the mix, report.lua); mix_lua MIX OUT writes them joined into OUT.
# A mix is lua/mix-MIX.lua here (this repo's mixes, e.g. varied-get, varied-post) or in the anchors (get, post,
# attack; read-only). The varied mixes are preceded by their generator (varied-random.lua), the site's shapes
# (varied-site.lua) and the visitor (varied-visitor.lua).
# Needs: ANCHORS (the anchors' proxy folder).
MIX_LUA_HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lua"
mix_lua_files() {
  local mix="$1" file
  if [ -f "$MIX_LUA_HERE/mix-$mix.lua" ]; then file="$MIX_LUA_HERE/mix-$mix.lua"
  elif [ -f "$ANCHORS/lua/mix-$mix.lua" ]; then file="$ANCHORS/lua/mix-$mix.lua"
  else echo "no mix $mix (mix-$mix.lua in $MIX_LUA_HERE or $ANCHORS/lua)" >&2; return 1; fi
  echo "$ANCHORS/lua/browser-headers.lua"
  case "$mix" in varied-*) echo "$MIX_LUA_HERE/varied-random.lua" "$MIX_LUA_HERE/varied-site.lua" "$MIX_LUA_HERE/varied-visitor.lua";; esac
  echo "$file" "$ANCHORS/lua/report.lua"
}
mix_lua() { # MIX OUT
  local files; files="$(mix_lua_files "$1")" || return 1
  # shellcheck disable=SC2086 # the list is paths without spaces, one a word
  cat $files > "$2"
}

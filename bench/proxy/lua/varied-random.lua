-- Seeded generator for the varied mixes (varied-get, varied-post): every wrk thread draws from its own sequence, so a
-- run is reproducible (same VARIED_SEED, same threads -> same requests) and no two threads send the same requests.
-- Park-Miller (a * x mod 2^31-1) in doubles: exact in LuaJIT and plain Lua alike, no bit library needed; its quality is
-- ample for picking words and ids. Defines setup() and init(); the mix file defines request().
local MODULUS = 2147483647
local rng_state = 1

local function rng()
  rng_state = (rng_state * 48271) % MODULUS
  return rng_state
end

local function rng_seed(seed)
  rng_state = (seed % (MODULUS - 1)) + 1
  for _ = 1, 16 do rng() end   -- move away from the small, similar first states of nearby seeds
end

local function rand_int(lo, hi) return lo + rng() % (hi - lo + 1) end
local function chance(p) return rng() / MODULUS < p end
local function pick(list) return list[rand_int(1, #list)] end

local function rand_from(alphabet, n)
  local out = {}
  for i = 1, n do local k = rand_int(1, #alphabet); out[i] = alphabet:sub(k, k) end
  return table.concat(out)
end
local function rand_hex(n) return rand_from("0123456789abcdef", n) end
local function rand_digits(n) return rand_from("123456789", 1) .. rand_from("0123456789", n - 1) end
-- Click ids (fbclid, gclid) and nonces are base64url; a "--" in them would read as an SQL comment to some rules, and
-- real ids do not contain one often enough to matter, so a dash is never followed by another dash.
local function rand_token(n)
  local s = rand_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", n)
  return (s:gsub("%-%-", "-x"))
end

-- A path of words: "spring-garden-tips" style slugs from n distinct-ish picks.
local function slug(words, lo, hi)
  local parts = {}
  for i = 1, rand_int(lo, hi) do parts[i] = pick(words) end
  return table.concat(parts, "-")
end

local function urlencode(s)
  return (s:gsub("[^%w%-%._~ ]", function(c) return string.format("%%%02X", string.byte(c)) end):gsub(" ", "+"))
end

-- Per-thread identity: setup() runs in wrk's main Lua state once per thread and numbers the threads; init() runs in
-- each thread's own state. thread_index and the request counter make every request of a run distinct (see the
-- _ga_ cookie in varied-visitor.lua) even where two random draws happen to agree.
local next_thread_index = 0
function setup(thread)
  thread:set("thread_index", next_thread_index)
  next_thread_index = next_thread_index + 1
end

local request_counter = 0
local BASE_TIME = 1714000000   -- 2024-04-25: all timestamps in cookies and ids are around this
function init(args)
  local base = tonumber(os.getenv("VARIED_SEED") or "1") or 1
  rng_seed(base * 7919 + (thread_index or 0) * 104729)
end

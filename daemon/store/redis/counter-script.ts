import type { Redis } from 'ioredis';
import { withDeadline } from './call-deadline.js';
import { COMMAND_TIMEOUT_MS } from './redis-connection.js';

// The one Redis call a counted request costs (shared/design/scale-out.md, section 5.3): add n hits
// to the key's current window and read the count back, atomically. The window is taken from Redis's
// own clock (TIME), not the node's, so nodes whose clocks disagree still count into the same window
// and agree on when it ends. The key expires a little after its window (never read again once the
// window is over; the margin only keeps a late reply's key from vanishing under it).
// The key is built inside the script from KEYS[1] plus the window, which Redis Cluster would refuse
// (undeclared key): the target is one Redis, optionally behind Sentinel.

const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local windowMs = tonumber(ARGV[1])
local n = tonumber(ARGV[2])
local start = now - now % windowMs
local key = KEYS[1] .. ':' .. start
local count = redis.call('INCRBY', key, n)
if count == n then redis.call('PEXPIREAT', key, start + windowMs + 5000) end
return {count, start + windowMs, now}
`;

/** What one call answers: the count after adding n, and Redis's window end and clock, in epoch ms. */
export interface WindowCount {
  count: number;
  windowEnd: number;
  redisNow: number;
}

export interface CounterScript {
  /** Adds n hits to `key`'s current window (windowMs long, aligned to Redis's epoch ms). */
  add(key: string, windowMs: number, n: number): Promise<WindowCount>;
}

/** Prefix of every counter key this daemon writes, so an operator can tell them apart (and SCAN them). */
export const COUNTER_KEY_PREFIX = 'wafctl:rl:';

// defineCommand sends EVALSHA and falls back to EVAL (which loads the script) when Redis answers
// NOSCRIPT, as after a restart or SCRIPT FLUSH.
type WithCounter = Redis & { wafctlCount(key: string, windowMs: number, n: number): Promise<[number, number, number]> };

export function counterScript(redis: Redis): CounterScript {
  if (!('wafctlCount' in redis)) redis.defineCommand('wafctlCount', { numberOfKeys: 1, lua: SCRIPT });
  const client = redis as WithCounter;
  return {
    async add(key, windowMs, n) {
      const [count, windowEnd, redisNow] = await withDeadline(client.wafctlCount(COUNTER_KEY_PREFIX + key, windowMs, n), COMMAND_TIMEOUT_MS);
      return { count: Number(count), windowEnd: Number(windowEnd), redisNow: Number(redisNow) };
    },
  };
}

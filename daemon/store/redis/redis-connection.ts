import { Redis } from 'ioredis';

// The node primary's one connection to the cluster's Redis, set up so that a Redis that hangs,
// refuses or is cut off fails a call quickly instead of holding the request that made it
// (shared/design/scale-out.md section 3, measured: with ioredis' defaults a call to a stopped
// Redis was still waiting after 3 s; with these options it fails after 51-64 ms, and in 0.3 ms
// when Redis refuses connections):
//   a 50 ms deadline       a call with no answer in 50 ms fails (call-deadline.ts: judged after the
//                          poll phase, so a stall of this process is not taken for Redis's);
//   commandTimeout 1 s     ioredis' own, a backstop that also bounds its command queue;
//   maxRetriesPerRequest 0 a call in flight when the connection breaks fails, not re-sent later;
//   enableOfflineQueue off a call while disconnected fails at once, not queued until reconnect;
//   auto-pipelining        calls made in one turn go out in one write.
// Reconnection is ioredis' own (backoff up to 2 s); the breaker (counter-breaker.ts) probes.

export const COMMAND_TIMEOUT_MS = 50;
const BACKSTOP_TIMEOUT_MS = 1_000;

export function connectRedis(url: string, name = `wafctl ${process.pid}`): Redis {
  const redis = new Redis(url, {
    commandTimeout: BACKSTOP_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    connectTimeout: 2_000,
    connectionName: name.replace(/\s+/g, '-'),
    lazyConnect: true,
    retryStrategy: (times) => Math.min(times * 100, 2_000),
  });
  // Connection errors also reach the calls that fail; unhandled, the event would kill the daemon.
  redis.on('error', () => undefined);
  return redis;
}

/** Where the cluster's Redis is, said without its password: what logs and status may show. */
export function describeRedis(url: string): string {
  try {
    const parsed = new URL(url);
    const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : '';
    return `${parsed.protocol}//${user}${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return 'an unparsable Redis URL';
  }
}

/** Errors that mean "this node may not use Redis" (a wrong password, a missing permission):
 *  they stop the start with their own message rather than look like an outage. */
export function isRefusal(error: unknown): boolean {
  return /^(WRONGPASS|NOAUTH|NOPERM)\b/.test((error as Error)?.message ?? '');
}

import type { CounterHit, CounterStore } from '../../store/counter-store.js';
import type { EdgeRequest } from '../edge-request.js';
import type { PrefixRule } from '../path-prefix.js';
import type { Block } from './outcome.js';

// Step 6. Per client IP, fixed 60-second window, per protected path: the most specific matching
// path's limit applies and its counter is the one counted (a request to /wp-login.php under
// both "/" and "/wp-login.php" counts against "/wp-login.php" only). Over the limit the answer
// is 429 with Retry-After (seconds to the end of the window), not the site's block response:
// a limited client is told when to come back, and a browser user sees why.
// A path with `..` segments whose written form (EdgeRequest.pathUnresolved) hits another rule
// than its resolved form counts against both, so `/api/bulk/../login` cannot trade the limit of
// `/api` for the looser one of `/api/bulk`.

export const RATE_WINDOW_MS = 60_000;

export function checkRateLimit(req: EdgeRequest, counters: CounterStore): Block | null | Promise<Block | null> {
  const table = req.site.rateLimits;
  if (table.size === 0) return null;
  const rule = table.match(req.path);
  const written = req.pathUnresolved ? table.match(req.pathUnresolved) : undefined;
  if (!written || written === rule) return rule ? count(req, rule, counters) : null;
  if (!rule) return count(req, written, counters);
  const first = count(req, rule, counters);
  const second = count(req, written, counters);
  if (!(first instanceof Promise) && !(second instanceof Promise)) return first ?? second;
  return Promise.all([first, second]).then(([a, b]) => a ?? b);
}

function count(req: EdgeRequest, rule: PrefixRule<number>, counters: CounterStore): Block | null | Promise<Block | null> {
  const key = `${req.site.id}\u0000${rule.path}\u0000${req.client.text}`;
  const now = Date.now();
  const hit = counters.hit(key, RATE_WINDOW_MS, now, rule.value);
  if (hit instanceof Promise) return hit.then((h) => judge(req, rule.path, rule.value, h, now));
  return judge(req, rule.path, rule.value, hit, now);
}

function judge(req: EdgeRequest, path: string, limit: number, hit: CounterHit, now: number): Block | null {
  if (hit.count <= limit) return null;
  const retryAfter = Math.max(1, Math.ceil((hit.resetAt - now) / 1000));
  return {
    kind: 'block', group: 'rate-limit', ruleId: 'rate-limit', severity: 'WARNING',
    msg: hit.denied ? `Rate limit for ${path} not counted: the cluster's shared counters are unusable (counter failure mode deny)` : `Rate limit of ${limit} requests per minute exceeded for ${path}`,
    matchedVar: 'IP', matchedData: hit.denied ? `unavailable/${limit}` : `${hit.count}/${limit}`,
    response: { status: 429, headers: { 'retry-after': String(retryAfter) } },
  };
}

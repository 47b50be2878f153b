import type { CounterStore } from '../../store/counter-store.js';
import type { EdgeRequest } from '../edge-request.js';
import type { Block } from './outcome.js';
import { RATE_WINDOW_MS } from './rate-limit.js';

// Rate limits that rules decide to apply (step 8 feeding step 6's limiter): the engine reports
// the counters a request feeds (Verdict.counters, e.g. 'wp_login' from cms rule 200140), and
// each is counted per client IP and site in the same CounterStore and window as the path rate
// limits, so it is exact across workers too. A counter the site has no limit for is ignored.
// Counting happens only when the engine did not block the request anyway.

export async function checkRuleCounters(req: EdgeRequest, names: readonly string[], counters: CounterStore): Promise<Block | null> {
  for (const name of names) {
    const limit = req.site.ruleCounters.get(name);
    if (limit === undefined) continue;
    const now = Date.now();
    const hit = await counters.hit(`${req.site.id}\u0000counter:${name}\u0000${req.client.text}`, RATE_WINDOW_MS, now, limit);
    if (hit.count <= limit) continue;
    const retryAfter = Math.max(1, Math.ceil((hit.resetAt - now) / 1000));
    return {
      kind: 'block', group: 'rate-limit', ruleId: `counter:${name}`, severity: 'WARNING',
      msg: `Rule counter ${name} over ${limit} per minute (brute force)`, matchedVar: `TX:wafctl_counter_${name}`, matchedData: hit.denied ? `unavailable/${limit}` : `${hit.count}/${limit}`,
      response: { status: 429, headers: { 'retry-after': String(retryAfter) } },
    };
  }
  return null;
}

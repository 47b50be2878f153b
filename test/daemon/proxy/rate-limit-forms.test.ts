import { describe, expect, it } from 'vitest';
import { checkRateLimit } from '../../../daemon/proxy/checks/rate-limit.js';
import type { EdgeRequest } from '../../../daemon/proxy/edge-request.js';
import { parseIp } from '../../../daemon/proxy/ip-set.js';
import { requestPaths } from '../../../daemon/proxy/path-normal-form.js';
import { buildEdgeSnapshot } from '../../../daemon/proxy/snapshot.js';
import { MemoryCounterStore, type CounterStore } from '../../../daemon/store/counter-store.js';

// A path with `..` segments counts against the rule of its resolved form and that of its written
// form (for origins that route on the raw path), with the in-process counters (synchronous) and
// with counters that answer later (the cluster's, in the primary).

const INSTANT = 1_800_000_000_000;
const sync = (): CounterStore => { const s = new MemoryCounterStore(); return { hit: (k, w) => s.hit(k, w, INSTANT) }; };
const later = (): CounterStore => { const s = new MemoryCounterStore(); return { hit: (k, w) => new Promise((r) => setImmediate(() => r(s.hit(k, w, INSTANT)))) }; };

const site = buildEdgeSnapshot({ sites: [{
  id: 1, domain: 'rl.test', origin: 'http://127.0.0.1:9',
  rateLimits: [{ path: '/api', perMinute: 100 }, { path: '/api/login', perMinute: 2 }],
}] }).siteForHost('rl.test')!;

function req(uri: string): EdgeRequest {
  const { path, unresolved } = requestPaths(uri);
  const client = parseIp('20.0.0.1')!;
  return { requestId: 'r', receivedAt: 0, method: 'POST', uri, path, pathUnresolved: unresolved, host: 'rl.test', client, country: '', userAgent: '', referer: undefined, cookie: undefined, secure: false, site };
}

describe.each([['synchronous counters', sync], ['counters that answer later', later]])('rate limit, both forms of a path (%s)', (_name, counters) => {
  it('/api/login/../x counts against /api/login too: the third is 429', async () => {
    const store = counters();
    const results = [];
    for (let i = 0; i < 3; i++) results.push((await checkRateLimit(req('/api/login/%2e%2e/x'), store))?.response?.status ?? 200);
    expect(results).toEqual([200, 200, 429]);
    // ...and it was counted against /api/login itself.
    expect((await checkRateLimit(req('/api/login'), store))?.response?.status).toBe(429);
  });

  it('a path without `..` counts once, against its most specific rule', async () => {
    const store = counters();
    for (let i = 0; i < 5; i++) expect(await checkRateLimit(req('/api/other'), store)).toBeNull();
    expect(await checkRateLimit(req('/api/login'), store)).toBeNull();
  });
});

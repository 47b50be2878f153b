import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCounterStore, type CounterStore } from '../../../daemon/store/counter-store.js';
import { rawExchange, startRecordingOrigin, type RecordingOrigin } from './hardening/raw-client.js';
import { startEdge, type RunningEdge } from './helpers.js';
import { spellingArb } from './path-encodings.js';

// Security review H2 through a real edge and a real origin, over raw sockets (paths go on the
// wire exactly as written): page protection and path rate limits hold for every spelling of the
// protected paths, in a fixed sample of the property test's spellings, and the allowed client
// still reaches the origin with them (the check protects the path, it does not refuse odd URLs).

const HOST = 'paths.test';

/** Real counters on one pinned instant: the windows are wall-clock minutes, and a test must not straddle one. */
function pinnedCounters(): CounterStore {
  const store = new MemoryCounterStore();
  const instant = 1_800_000_000_000;
  return { hit: (key, windowMs) => store.hit(key, windowMs, instant) };
}
const ALLOWED = '10.9.9.9';

function get(port: number, target: string, client: string) {
  return rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: ${HOST}\r\nX-Forwarded-For: ${client}\r\nConnection: close\r\n\r\n`);
}

describe('protected paths and rate limits, every spelling (real edge, real origin)', () => {
  let origin: RecordingOrigin;
  let edge: RunningEdge;
  let nextClient = 1;
  /** Each test counts against its own client address. */
  const freshClient = () => `20.0.${Math.floor(nextClient / 250)}.${(nextClient++ % 250) + 1}`;

  beforeAll(async () => {
    origin = await startRecordingOrigin();
    edge = await startEdge([{
      id: 1, domain: HOST, origin: origin.url,
      pageProtection: [{ path: '/wp-admin', allow: [ALLOWED] }],
      rateLimits: [{ path: '/api', perMinute: 2 }],
    }], { trustedProxies: ['127.0.0.1/32'], counters: pinnedCounters() });
  });
  afterAll(async () => { await edge.close(); await origin.close(); });

  it.each([
    '/%77p-admin/%ff', '/wp%2dadmin/index.php%80', '/%77p-admin/', '/WP-ADMIN/x', '/wp-admin;x/', '/public/..;/wp-admin/',
    '/wp-admin./', '/wp-admin%20/', '/wp-admin%00.jpg', '/x\\..\\wp-admin\\', '/x/..%2fwp-admin/', '/wp-admin/admin-ajax.php/%c0%af',
    '/wp-admin/../public', '/wp-admin/%2e%2e%2fpublic', 'http://paths.test/%77p-admin/%ff', 'HTTP://PATHS.TEST//%57P-ADMIN;x/',
  ])('%s: refused for other clients and never forwarded', async (target) => {
    const heads = origin.heads.length;
    const reply = await get(edge.port, target, freshClient());
    expect(reply.statuses).toEqual([403]);
    expect(origin.heads.length).toBe(heads);
    const requestId = /x-request-id: (\S+)/i.exec(reply.text)![1];
    expect(edge.sink.wafEvents.find((e) => e.request_id === requestId)).toMatchObject({ group: 'page', rule_id: 'page-protection' });
  });

  it('a sample of the property test\'s spellings of /wp-admin and below: 403 for others, forwarded for the allowed client', async () => {
    const sample = fc.sample(spellingArb('/wp-admin'), { seed: 19, numRuns: 40 });
    for (const { raw } of sample) {
      const heads = origin.heads.length;
      const refused = await get(edge.port, raw, freshClient());
      expect(refused.statuses, raw).toEqual([403]);
      expect(origin.heads.length, raw).toBe(heads);
      const allowed = await get(edge.port, raw, ALLOWED);
      expect(allowed.statuses, raw).toEqual([200]);
      expect(origin.heads.at(-1)!.url, raw).toBe(raw);
    }
  });

  it('a rate limit counts every spelling of its path, and `..` cannot step out of it', async () => {
    const client = freshClient();
    const sample = fc.sample(spellingArb('/api'), { seed: 7, numRuns: 12 });
    expect((await get(edge.port, '/api/x', client)).statuses).toEqual([200]);
    expect((await get(edge.port, '/api/y', client)).statuses).toEqual([200]);
    for (const target of ['/%61pi/x%ff', '/api/../x', ...sample.map((s) => s.raw)]) {
      expect((await get(edge.port, target, client)).statuses, target).toEqual([429]);
    }
    // Other paths of the same client are not limited.
    expect((await get(edge.port, '/apix', client)).statuses).toEqual([200]);
    expect((await get(edge.port, '/public/x', client)).statuses).toEqual([200]);
  });
});

// The cluster counters (daemon/cluster/cluster-counters.ts: ioredis with its timeouts, the breaker,
// the local fallback) when Redis hangs or is cut off, through a relay the test controls, and when a
// Redis of the test's own is stopped with SIGSTOP. Judged by what the hits were answered and by the
// state and log lines, never by how long anything took (latency is in bench/cluster/rate-limit.ts).
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { openClusterCounters, type ClusterCounters } from '../../daemon/cluster/cluster-counters.js';
import type { CounterHit } from '../../daemon/store/counter-store.js';
import { outageProxy, type OutageProxy } from './outage-proxy.js';
import { privateRedis, testRedis, until } from './redis.js';

const server = await testRedis('counter-breaker');
if (!server.ok) console.warn(server.skip);

const opened: ClusterCounters[] = [];
const proxies: OutageProxy[] = [];
afterAll(async () => {
  for (const counters of opened.splice(0)) await counters.close();
  for (const proxy of proxies.splice(0)) await proxy.close();
  if (server.ok) await server.stop();
});

/** Cluster counters whose log lines the test reads. */
async function countersOn(url: string, failureMode: 'open' | 'deny' = 'open'): Promise<{ counters: ClusterCounters; lines: Array<{ msg: string; level: number }> }> {
  const lines: Array<{ msg: string; level: number }> = [];
  const sink = new Writable({ write(chunk, _enc, done) { lines.push(JSON.parse(String(chunk))); done(); } });
  const counters = await openClusterCounters({ url, failureMode, logger: pino({ level: 'info' }, sink) });
  opened.push(counters);
  return { counters, lines };
}

async function relayTo(url: string): Promise<OutageProxy> {
  const proxy = await outageProxy(url);
  proxies.push(proxy);
  return proxy;
}

const key = (name: string) => `test\u0000${name}\u0000${process.pid}-${Math.random().toString(36).slice(2)}`;
const HOUR = 3_600_000;
const hit = (c: ClusterCounters, k: string, limit = 1000): Promise<CounterHit> => Promise.resolve(c.store.hit(k, HOUR, Date.now(), limit));
const unusable = (lines: Array<{ msg: string }>) => lines.filter((l) => l.msg.startsWith('cluster counters: Redis unusable')).length;
const back = (lines: Array<{ msg: string }>) => lines.filter((l) => l.msg.startsWith('cluster counters: Redis answers again')).length;

describe.skipIf(!server.ok)('cluster counters when Redis fails', () => {
  const url = server.ok ? server.url : '';

  for (const failure of ['hang', 'cut'] as const) {
    it(`Redis ${failure === 'hang' ? 'hangs' : 'is cut off'}: 5 failures open the breaker, hits are counted on the node, one log line each way, exact again after a probe`, async () => {
      const proxy = await relayTo(url);
      const { counters, lines } = await countersOn(proxy.url);
      const k = key(failure);
      expect((await hit(counters, k)).count).toBe(1);
      expect(counters.status().state).toBe('exact');

      failure === 'hang' ? proxy.hang() : proxy.cut();
      // Sequential hits: each of the first five fails (timeout, or refused) and is counted locally.
      const during: number[] = [];
      for (let i = 0; i < 8; i++) during.push((await hit(counters, k)).count);
      expect(counters.status().state).toBe('degraded');
      expect(during, 'fail open: counted on this node, from this node\'s own zero').toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(unusable(lines)).toBe(1);

      proxy.restore();
      expect(await until(() => counters.status().state === 'exact'), 'a probe finds Redis again').toBe(true);
      expect(back(lines)).toBe(1);
      expect(unusable(lines), 'one line per transition, not per failure').toBe(1);
      // Counting in Redis again: its count went on from where Redis had it (a hung Redis may also
      // have run the calls that timed out, once released: an overcount, never an undercount).
      const again = (await hit(counters, k)).count;
      expect(again).toBeGreaterThanOrEqual(2);
    }, 60_000);
  }

  it('deny: while Redis is unusable, counted hits are refused (429 upstream), and counted again after recovery', async () => {
    const proxy = await relayTo(url);
    const { counters } = await countersOn(proxy.url, 'deny');
    const k = key('deny');
    expect((await hit(counters, k)).denied).toBeUndefined();
    proxy.cut();
    const during = [];
    for (let i = 0; i < 7; i++) during.push(await hit(counters, k, 10));
    expect(during.every((h) => h.denied === true && h.count > 10)).toBe(true);
    expect(counters.status()).toMatchObject({ state: 'degraded', failure_mode: 'deny' });
    proxy.restore();
    expect(await until(() => counters.status().state === 'exact')).toBe(true);
    const after = await hit(counters, k, 10);
    expect(after.denied).toBeUndefined();
    expect(after.count).toBe(2);
  }, 60_000);

  it('a node that starts while Redis is unreachable starts degraded and comes back by itself', async () => {
    const proxy = await relayTo(url);
    proxy.cut();
    const { counters, lines } = await countersOn(proxy.url);
    expect(counters.status().state).toBe('degraded');
    expect((await hit(counters, key('start'))).count).toBe(1);
    proxy.restore();
    expect(await until(() => counters.status().state === 'exact')).toBe(true);
    expect([unusable(lines), back(lines)]).toEqual([1, 1]);
  }, 60_000);
});

describe('a stopped Redis (SIGSTOP) under three nodes', async () => {
  const own = await privateRedis();
  if (!own.ok) console.warn(own.skip);
  afterAll(async () => { if (own.ok) await own.stop(); });

  it.skipIf(!own.ok)('allowed stays within (N+1)·L per client and window while stopped, and is exactly L again from the next window after SIGCONT', async () => {
    if (!own.ok) return;
    const nodes = await Promise.all([0, 1, 2].map(async () => (await countersOn(own.url)).counters));
    const limit = 20;
    const windowMs = 4_000;
    const clients = Array.from({ length: 5 }, (_, i) => key(`stopped-${i}`));
    type Answer = { client: string; window: number; allowed: boolean };
    const round = async (per: number): Promise<Answer[]> => {
      const answers: Array<Promise<Answer>> = [];
      let turn = 0;
      for (let i = 0; i < per; i++) {
        for (const client of clients) {
          const node = nodes[turn++ % nodes.length]!;
          answers.push(Promise.resolve(node.store.hit(client, windowMs, Date.now(), limit)).then((h) => ({ client, window: Math.round(h.resetAt / windowMs), allowed: h.count <= limit })));
        }
      }
      return Promise.all(answers);
    };
    const tally = (answers: Answer[]) => {
      const by = new Map<string, { allowed: number; hits: number }>();
      for (const a of answers) {
        const id = `${a.client}@${a.window}`;
        const t = by.get(id) ?? { allowed: 0, hits: 0 };
        t.hits++;
        if (a.allowed) t.allowed++;
        by.set(id, t);
      }
      return by;
    };

    const before = await round(10); // some counted in Redis first
    process.kill(own.pid, 'SIGSTOP');
    let stopped: Answer[] = [];
    try {
      expect(await until(async () => {
        stopped.push(...await round(15));
        return nodes.every((n) => n.status().state === 'degraded');
      }, 200, 1), 'every node notices').toBe(true);
      stopped.push(...await round(60));
    } finally {
      process.kill(own.pid, 'SIGCONT');
    }
    for (const [id, t] of tally([...before, ...stopped])) expect(t.allowed, `${id}: at most (N+1)·L`).toBeLessThanOrEqual((nodes.length + 1) * limit);

    expect(await until(() => nodes.every((n) => n.status().state === 'exact')), 'every node counts in Redis again').toBe(true);
    const recovered = Math.round(Date.now() / windowMs) + 1; // windows that start after this are fully exact
    const after: Answer[] = [];
    expect(await until(async () => {
      after.push(...await round(30));
      return after.some((a) => a.window > recovered + 1);
    }, 2000, 20)).toBe(true);
    const fresh = [...tally(after.filter((a) => a.window > recovered))];
    expect(fresh.length).toBeGreaterThan(0);
    for (const [id, t] of fresh) expect(t.allowed, id).toBe(Math.min(limit, t.hits));
  }, 120_000);
});

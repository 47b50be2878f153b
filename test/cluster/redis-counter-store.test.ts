// The Redis counter store on a real Redis: exact counts when several nodes (connections) hit the
// same keys at once, coalescing of one turn's hits into one call, windows and expiry taken from
// Redis's clock, and the over-limit cache. Counts are judged per window (the resetAt each hit got),
// so a run that straddles a window boundary is still judged exactly.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { counterScript, COUNTER_KEY_PREFIX, type CounterScript } from '../../daemon/store/redis/counter-script.js';
import { connectRedis } from '../../daemon/store/redis/redis-connection.js';
import { RedisCounterStore } from '../../daemon/store/redis/redis-counter-store.js';
import { testRedis } from './redis.js';

const server = await testRedis('redis-counter-store');
if (!server.ok) console.warn(server.skip);

const clients: Redis[] = [];
afterAll(async () => {
  for (const client of clients.splice(0)) client.disconnect();
  if (server.ok) await server.stop();
});

async function client(url: string): Promise<Redis> {
  const redis = connectRedis(url, 'wafctl test');
  clients.push(redis);
  await redis.connect();
  return redis;
}

/** The script, with its calls counted. */
function counted(script: CounterScript): CounterScript & { calls: number } {
  const wrapper = { calls: 0, add: (key: string, windowMs: number, n: number) => { wrapper.calls++; return script.add(key, windowMs, n); } };
  return wrapper;
}

const unique = (name: string) => `test\u0000${name}\u0000${process.pid}-${Math.random().toString(36).slice(2)}`;
const HOUR = 3_600_000;

describe.skipIf(!server.ok)('RedisCounterStore on a real Redis', () => {
  const url = server.ok ? server.url : '';

  it('three nodes, 20 clients x 300 hits round-robin, all in flight: exactly L allowed per client and window, counts never repeat', async () => {
    const nodes = await Promise.all([0, 1, 2].map(async () => new RedisCounterStore(counterScript(await client(url)))));
    const limit = 100;
    const keys = Array.from({ length: 20 }, (_, i) => unique(`client-${i}`));
    const hits: Array<Promise<{ key: string; count: number; resetAt: number }>> = [];
    let turn = 0;
    for (let round = 0; round < 300; round++) {
      for (const key of keys) {
        const node = nodes[turn++ % nodes.length]!;
        hits.push(node.hit(key, HOUR, Date.now(), limit).then((hit) => ({ key, ...hit })));
      }
    }
    const answers = await Promise.all(hits);
    const byWindow = new Map<string, number[]>();
    for (const a of answers) {
      // resetAt is Redis's window end on each node's clock (ms apart between nodes): the window's number.
      const id = `${a.key}@${Math.round(a.resetAt / HOUR)}`;
      byWindow.set(id, [...(byWindow.get(id) ?? []), a.count]);
    }
    for (const [id, counts] of byWindow) {
      const allowed = counts.filter((c) => c <= limit).length;
      expect(allowed, id).toBe(Math.min(limit, counts.length));
      expect(new Set(counts).size, `${id}: no count given twice`).toBe(counts.length);
    }
    const perKey = keys.map((key) => answers.filter((a) => a.key === key && a.count <= limit).length);
    // One window of an hour unless the run crossed its end: then at most 2L, still exact per window above.
    for (const allowed of perKey) expect([limit, 2 * limit]).toContain(allowed);
  });

  it('hits on one key in one turn become one INCRBY n, with consecutive counts in arrival order', async () => {
    const script = counted(counterScript(await client(url)));
    const store = new RedisCounterStore(script);
    const key = unique('coalesced');
    const first = await Promise.all(Array.from({ length: 10 }, () => store.hit(key, HOUR, Date.now())));
    expect(first.map((h) => h.count)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(script.calls).toBe(1);
    const other = unique('other');
    const mixed = await Promise.all([store.hit(key, HOUR, Date.now()), store.hit(other, HOUR, Date.now()), store.hit(key, HOUR, Date.now())]);
    expect(mixed.map((h) => h.count)).toEqual([11, 1, 12]);
    expect(script.calls, 'one call per key and turn').toBe(3);
  });

  it("the window and its end come from Redis's clock; the key expires 5 s after its window", async () => {
    const redis = await client(url);
    const script = counterScript(redis);
    const key = unique('window');
    const windowMs = 60_000;
    const redisMs = async () => { const [s, us] = await redis.time(); return Number(s) * 1000 + Math.floor(Number(us) / 1000); };
    const before = await redisMs();
    const answer = await script.add(key, windowMs, 3);
    const after = await redisMs();
    expect(answer.count).toBe(3);
    expect(answer.redisNow).toBeGreaterThanOrEqual(before);
    expect(answer.redisNow).toBeLessThanOrEqual(after);
    expect(answer.windowEnd).toBe(answer.redisNow - (answer.redisNow % windowMs) + windowMs);
    const stored = `${COUNTER_KEY_PREFIX}${key}:${answer.windowEnd - windowMs}`;
    expect(await redis.get(stored)).toBe('3');
    expect(Number(await redis.call('PEXPIRETIME', stored))).toBe(answer.windowEnd + 5000);
    // A second add keeps the expiry where it was.
    await script.add(key, windowMs, 1);
    expect(Number(await redis.call('PEXPIRETIME', stored))).toBe(answer.windowEnd + 5000);
  });

  it("resetAt is on this node's clock: a node whose clock is 2 s ahead gets Redis's window end 2 s later", async () => {
    const script = counterScript(await client(url));
    const ahead = new RedisCounterStore(script, () => Date.now() + 2000);
    const right = new RedisCounterStore(script);
    const key = unique('skew');
    const [a, b] = [await ahead.hit(key, HOUR, Date.now() + 2000), await right.hit(key, HOUR, Date.now())];
    expect([a.count, b.count]).toEqual([1, 2]);
    // Each reply's offset is measured on its own; both are the same Redis window end, a round trip apart.
    expect(Math.abs(a.resetAt - 2000 - b.resetAt)).toBeLessThan(1000);
    expect(ahead.clockOffsetMs).toBeLessThan(right.clockOffsetMs);
  });

  it('a key over its limit is answered without Redis until its window ends, then asked again', async () => {
    const script = counted(counterScript(await client(url)));
    const store = new RedisCounterStore(script);
    const key = unique('over');
    for (let i = 1; i <= 4; i++) expect((await store.hit(key, HOUR, Date.now(), 3)).count).toBe(i);
    const callsWhenOver = script.calls;
    const cached = await store.hit(key, HOUR, Date.now(), 3);
    expect(cached.count).toBe(5);
    expect(script.calls, 'answered from the over-limit cache').toBe(callsWhenOver);
    // A caller with a higher limit (the site's limit was raised) is not answered from it.
    expect((await store.hit(key, HOUR, Date.now(), 10)).count).toBe(5);
    expect(script.calls).toBe(callsWhenOver + 1);
    // At the window's end the cache entry is dropped and Redis is asked.
    await store.hit(key, HOUR, cached.resetAt, 3);
    expect(script.calls).toBe(callsWhenOver + 2);
  });
});

// Bans shared by cluster nodes against a real PostgreSQL and a Redis of the file's own: a ban set
// on one node reaches the others through NOTIFY (a node without Redis) and through Redis alone (a
// node listening on another database, so no NOTIFY can reach it); the 30 s reconcile is set to an
// hour here, so it cannot be what delivers. A lift too. A restarted (empty) Redis gets the live
// bans' keys back; a lifted ban's key stays lifted; a node that starts while PostgreSQL is cut off
// enforces what Redis holds and refuses writes with 503.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { openPgBanStore, type PgBanStore } from '../../daemon/cluster/bans/pg-ban-store.js';
import type { Ban } from '../../shared/schemas/bans.js';
import { outageProxy } from './outage-proxy.js';
import { freshDatabase, sql, testPostgres } from './postgres.js';
import { privateRedis, until } from './redis.js';

const server = await testPostgres();
const redis = server.ok ? await privateRedis() : null;
const skip = !server.ok ? server.skip : redis && !redis.ok ? redis.skip : null;
if (skip) console.warn(skip);
const stores: PgBanStore[] = [];
afterAll(async () => {
  for (const s of stores.splice(0)) await s.close().catch(() => undefined);
  if (redis?.ok) await redis.stop();
  if (server.ok) await server.stop();
}, 60_000);

const silent = pino({ level: 'silent' });

async function node(url: string, redisUrl: string | null): Promise<PgBanStore> {
  const s = await openPgBanStore({ url, redis: redisUrl, logger: silent, reconcileMs: 3_600_000 });
  stores.push(s);
  return s;
}

function ban(ip: string, minutes = 60, siteId = 1): Ban {
  const now = Date.now();
  return {
    id: randomUUID(), site_id: siteId, ip, reason: 'test', source: 'auto', node: 'a',
    created_at: new Date(now).toISOString(), expires_at: new Date(now + minutes * 60_000).toISOString(), revoked_at: null,
  };
}

const holds = (s: PgBanStore, id: string, revoked = false) => s.all().some((b) => b.id === id && (b.revoked_at !== null) === revoked);

describe.skipIf(skip !== null)('bans shared through PostgreSQL and Redis', () => {
  const pgUrl = server.ok ? server.url : '';
  const redisUrl = redis?.ok ? redis.url : '';

  it('a ban set on one node reaches the others (Redis and NOTIFY), and so does its lift', async () => {
    const url = await freshDatabase(pgUrl);
    const [a, b, c] = [await node(url, redisUrl), await node(url, redisUrl), await node(url, null)];
    // Another database, the same Redis: only Redis can bring it a ban of `url`'s nodes.
    const redisOnly = await node(await freshDatabase(pgUrl), redisUrl);
    // Every listener up, so no (re)connect's full read comes after the ban (redisOnly's would drop
    // it: its own database has no such ban).
    expect(await until(() => [a, b, c, redisOnly].every((s) => s.listening))).toBe(true);
    const changes: number[] = [];
    c.onChange(() => changes.push(c.all().length));
    const first = ban('203.0.113.7');
    await a.add(first);
    expect(holds(a, first.id)).toBe(true);
    expect(await until(() => holds(b, first.id) && holds(c, first.id) && holds(redisOnly, first.id))).toBe(true);
    const lifted = await b.revoke(1, '203.0.113.7', new Date().toISOString());
    expect(lifted.map((x) => x.id)).toEqual([first.id]);
    expect(await until(() => holds(a, first.id, true) && holds(c, first.id, true) && holds(redisOnly, first.id, true))).toBe(true);
    expect(changes).toEqual([1, 1]);
    // Nothing active is lifted twice.
    expect(await a.revoke(1, '203.0.113.7', new Date().toISOString())).toEqual([]);
    const rows = await sql<{ n: string }>(url, 'SELECT count(*) AS n FROM wafctl_bans WHERE revoked_at IS NOT NULL');
    expect(Number(rows[0]!.n)).toBe(1);
  }, 60_000);

  it('gives a restarted Redis the live bans back, and a node started while PostgreSQL is cut off takes them from Redis', async () => {
    const url = await freshDatabase(pgUrl);
    const a = await node(url, redisUrl);
    // Site 2: the file's Redis is shared with the test before, whose keys may still be there.
    const live = ban('198.51.100.0/24', 60, 2);
    const short = ban('192.0.2.1', 1, 2);
    await a.add(live);
    await a.add(short);
    await a.revoke(2, '192.0.2.1', new Date().toISOString());
    const probe = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      expect(await probe.get(`wafctl:ban:${live.id}`)).not.toBeNull();
      // A lifted ban's key says so until its expiry: a reseed (NX) cannot bring it back.
      expect(JSON.parse((await probe.get(`wafctl:ban:${short.id}`))!)).toMatchObject({ id: short.id, revoked_at: expect.any(String) });
      const ttl = await probe.pttl(`wafctl:ban:${live.id}`);
      expect(ttl).toBeGreaterThan(59 * 60_000);
      expect(ttl).toBeLessThanOrEqual(60 * 60_000);

      await (redis as { restart(): Promise<void> }).restart();
      // a's connection comes back and re-seeds the live ban; the probe reconnects by itself.
      expect(await until(async () => (await probe.get(`wafctl:ban:${live.id}`).catch(() => null)) !== null)).toBe(true);
      expect(await probe.get(`wafctl:ban:${short.id}`)).toBeNull();

      const cut = await outageProxy(url);
      try {
        cut.cut();
        const d = await node(cut.url, redisUrl);
        expect(d.all().filter((x) => x.site_id === 2 && x.revoked_at === null).map((x) => x.id)).toEqual([live.id]);
        await expect(d.add(ban('203.0.113.99', 60, 2))).rejects.toMatchObject({ code: 'store_unavailable', status: 503 });
        await expect(d.revoke(2, '198.51.100.0/24', new Date().toISOString())).rejects.toMatchObject({ code: 'store_unavailable' });
        // PostgreSQL back: the next reconcile reads the records (the lifted one too).
        cut.restore();
        expect(await d.reconcile()).toBe(true);
        expect(holds(d, short.id, true)).toBe(true);
      } finally {
        await cut.close();
      }
    } finally {
      probe.disconnect();
    }
  }, 60_000);
});

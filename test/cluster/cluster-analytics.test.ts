// /analytics from PostgreSQL against a real server: access entries spread over two nodes give the
// very answer one JSONL store gives for the same entries (counts per hour, blocked, and the same
// unique-visitor estimate, not a close one), whether the rollups are still deltas, folded by the
// compactor, or half and half; compactors on two nodes at once fold each delta once; ingestion is
// answered after its deltas commit, 503 while PostgreSQL is cut off, and the spool drains after.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { compactAccess } from '../../daemon/cluster/events/access-compactor.js';
import { openJsonlEventStore, type JsonlEventStore } from '../../daemon/store/events/jsonl-event-store.js';
import type { AnalyticsPeriod, NewAccessEntry } from '../../shared/schemas/events.js';
import { accessEntry, memoryLogger, NOW, tempDir } from '../daemon/store/events/helpers.js';
import { openEventNode, type EventNode } from './event-node.js';
import { outageProxy } from './outage-proxy.js';
import { freshDatabase, sql, testPostgres } from './postgres.js';

const server = await testPostgres();
if (!server.ok) console.warn(server.skip);
const open: EventNode[] = [];
const pools: pg.Pool[] = [];
const stores: JsonlEventStore[] = [];
afterAll(async () => {
  for (const n of open.splice(0)) await n.cluster.close().catch(() => undefined);
  for (const p of pools.splice(0)) await p.end().catch(() => undefined);
  for (const s of stores.splice(0)) await s.close().catch(() => undefined);
  if (server.ok) await server.stop();
}, 60_000);

async function node(url: string, dir?: string, o?: { compactEveryMs?: number }): Promise<EventNode> {
  const n = await openEventNode(url, dir, o);
  open.push(n);
  return n;
}

function pool(url: string): pg.Pool {
  const p = new pg.Pool({ connectionString: url, max: 2 });
  pools.push(p);
  return p;
}

async function reference(entries: NewAccessEntry[]): Promise<JsonlEventStore> {
  const s = await openJsonlEventStore({ dir: tempDir('wafctl-analytics-ref-'), clock: () => NOW, logger: memoryLogger(), retentionEveryMs: 0, snapshotEveryMs: 0 });
  stores.push(s);
  if (entries.length > 0) await s.appendAccessEntries(entries);
  return s;
}

const IPS = ['10.0.0.1', '10.0.0.2', ' 10.0.0.3 ', '192.168.7.7', '2001:db8::1', '2001:DB8::1', '::ffff:10.0.0.1'];
const S = Math.floor(NOW / 1000);
/** The retention cut-off (s): entries before it are not shipped, as the JSONL store drops them. */
const VISIBLE_FROM_S = Math.floor(NOW / 86_400_000) * 86_400 - 90 * 86_400;

/**
 * `n` entries over the last 95 days and the hour ahead, on sites 1 and 2, with as many distinct
 * IPs as `visitors` (past 2,048 in an hour a sketch turns dense, so both forms are compared).
 */
function fixture(n: number, seed: number, visitors = 3_000): NewAccessEntry[] {
  return Array.from({ length: n }, (_, i) => {
    const k = i * 7919 + seed * 104_729;
    const secondsAgo = ((Math.imul(k, 2_654_435_761) >>> 0) % (95 * 86_400)) - 3_600;
    const v = k % visitors;
    return accessEntry({
      site_id: k % 3 === 0 ? 2 : 1,
      timestamp: S - secondsAgo,
      client_ip: v < IPS.length ? IPS[v]! : `10.${(v >> 16) & 255}.${(v >> 8) & 255}.${v & 255}`,
      status: [200, 403, 404, 200][k % 4]!,
      blocked: [undefined, true, false, undefined, undefined][k % 5],
    });
  });
}

/** The same entries, with most in one hour: a dense hour next to sparse ones. */
function busyHour(n: number, seed: number): NewAccessEntry[] {
  return Array.from({ length: n }, (_, i) => accessEntry({ site_id: 1, timestamp: S - 7_200 - (i % 3_000), client_ip: `172.16.${(i + seed) >> 8 & 255}.${(i + seed) & 255}`, status: i % 9 === 0 ? 403 : 200 }));
}

const PERIODS: AnalyticsPeriod[] = ['24h', '7d', '30d', '90d'];
const HOUR = 3_600_000;
const DAY = 86_400_000;
/**
 * "Now" inside an hour, on an hour boundary, at midnight (the period's whole days start and end
 * on day boundaries: no edge hours on one side) and a day ahead (hours not started yet are zero).
 */
const NOWS = [NOW + 17 * 60_000 + 3_000, Math.floor(NOW / HOUR) * HOUR, Math.floor(NOW / DAY) * DAY, NOW + DAY];

async function expectSameAnalytics(cluster: EventNode, ref: JsonlEventStore, sites = [1, 2, 3]): Promise<void> {
  for (const site of sites) {
    for (const period of PERIODS) {
      for (const now of NOWS) {
        const want = await ref.analytics({ site_id: site, period, now });
        const got = await cluster.cluster.analytics({ site_id: site, period, now });
        expect(got, `site ${site}, ${period}, now ${new Date(now).toISOString()}`).toEqual(want);
      }
    }
  }
}

/**
 * Until every node's access entries are in PostgreSQL. A ship attempt that fails meanwhile (the
 * test that cuts PostgreSQL off) rejects the wait: it is asked again, a bounded number of times.
 */
async function shipAll(nodes: EventNode[]): Promise<void> {
  for (const n of nodes) {
    for (let attempt = 1; ; attempt++) {
      try {
        await n.cluster.accessShipper.whenShipped(n.local.lastAccessEntryId());
        break;
      } catch (error) {
        if (attempt >= 20) throw error;
      }
    }
  }
}

describe.skipIf(!server.ok)('/analytics from PostgreSQL', () => {
  const serverUrl = server.ok ? server.url : '';

  it('gives the JSONL store\'s answer for entries spread over two nodes, as deltas, folded and half and half', async () => {
    const url = await freshDatabase(serverUrl);
    const [a, b] = [await node(url), await node(url)];
    const first = [...fixture(1_500, 1), ...busyHour(2_600, 0)];
    const ref = await reference(first);
    // Unequal shares, in several appends: deltas of one site and hour come from both nodes.
    await a.cluster.appendAccessEntries(first.slice(0, 1_000));
    await b.cluster.appendAccessEntries(first.slice(1_000, 2_900));
    await a.cluster.appendAccessEntries(first.slice(2_900));
    await shipAll([a, b]);
    const [{ deltas }] = await sql<{ deltas: string }>(url, 'SELECT count(*) AS deltas FROM access_deltas');
    expect(Number(deltas)).toBeGreaterThan(0);
    await expectSameAnalytics(b, ref);

    const folded = await compactAccess(pool(url));
    expect(folded).toEqual({ ran: true, folded: Number(deltas) });
    expect(await sql(url, 'SELECT 1 FROM access_deltas')).toHaveLength(0);
    await expectSameAnalytics(a, ref);

    // More entries, some in hours already folded: hourly rows and new deltas answer together.
    const later = [...fixture(800, 2), ...busyHour(500, 3_000)];
    await ref.appendAccessEntries(later);
    await b.cluster.appendAccessEntries(later.slice(0, 400));
    await a.cluster.appendAccessEntries(later.slice(400));
    await shipAll([a, b]);
    await expectSameAnalytics(a, ref);
    await compactAccess(pool(url));
    await expectSameAnalytics(b, ref);
  });

  it('folds each delta once when two compactors run at once, and counts each entry once across a restart', async () => {
    const url = await freshDatabase(serverUrl);
    const dir = tempDir('wafctl-cluster-events-');
    let n = await node(url, dir);
    const entries = fixture(3_000, 5, 400);
    const ref = await reference(entries);
    for (let i = 0; i < entries.length; i += 100) {
      await n.cluster.appendAccessEntries(entries.slice(i, i + 100));
      // Small batches: many deltas (more than one fold's 2,000) for the compactors to share out.
      await shipAll([n]);
    }
    const [{ deltas }] = await sql<{ deltas: string }>(url, 'SELECT count(*) AS deltas FROM access_deltas');
    expect(Number(deltas)).toBeGreaterThan(2_000);
    const reports = await Promise.all([compactAccess(pool(url)), compactAccess(pool(url))]);
    expect(reports.reduce((sum, r) => sum + r.folded, 0)).toBe(Number(deltas));
    expect(await compactAccess(pool(url))).toEqual({ ran: true, folded: 0 });
    await expectSameAnalytics(n, ref);

    open.splice(open.indexOf(n), 1);
    await n.cluster.close();
    // A new process (its cursor read from PostgreSQL) ships only what is new, and its own
    // compactor, on a short period this time, folds it.
    n = await node(url, dir, { compactEveryMs: 50 });
    const more = fixture(200, 6, 400);
    await ref.appendAccessEntries(more);
    await n.cluster.appendAccessEntries(more);
    await shipAll([n]);
    await expectSameAnalytics(n, ref);
    await eventuallyAsync(async () => (await sql(url, 'SELECT 1 FROM access_deltas')).length === 0);
    await expectSameAnalytics(n, ref);
    const [{ total }] = await sql<{ total: string }>(url, 'SELECT coalesce(sum(requests), 0) AS total FROM access_hourly');
    expect(Number(total)).toBe([...entries, ...more].filter((e) => e.timestamp >= VISIBLE_FROM_S).length);
  });

  it('answers ingestion once the deltas are in PostgreSQL, 503 while it is cut off, and drains the spool after', async () => {
    const url = await freshDatabase(serverUrl);
    const proxy = await outageProxy(url);
    try {
      const n = await node(proxy.url);
      const batch = fixture(50, 7);
      await n.cluster.appendAccessEntriesShipped(batch);
      const [{ shipped }] = await sql<{ shipped: string }>(url, 'SELECT coalesce(sum(requests), 0) AS shipped FROM access_deltas');
      expect(Number(shipped)).toBe(batch.filter((e) => e.timestamp >= VISIBLE_FROM_S).length);

      proxy.cut();
      await expect(n.cluster.analytics({ site_id: 1, period: '7d' })).rejects.toMatchObject({ code: 'store_unavailable', status: 503 });
      // The edge's entries keep going to the spool meanwhile.
      const spooled = fixture(300, 8);
      await n.cluster.appendAccessEntries(spooled);
      // Refused either at once (the shipper already met the outage: nothing stored) or after its
      // local append (then it ships with the backlog: answered 503 yet stored, as WAF events are).
      const beforeFirst = n.local.lastAccessEntryId();
      await expect(n.cluster.appendAccessEntriesShipped(fixture(1, 9))).rejects.toMatchObject({ code: 'store_unavailable' });
      const firstStored = n.local.lastAccessEntryId() > beforeFirst;
      await eventually(() => n.cluster.accessShipper.health === 'unreachable');
      const before = n.local.lastAccessEntryId();
      await expect(n.cluster.appendAccessEntriesShipped(fixture(1, 10))).rejects.toMatchObject({ code: 'store_unavailable' });
      expect(n.local.lastAccessEntryId()).toBe(before);
      expect(n.cluster.clusterStatus().access).toMatchObject({ state: 'unreachable', caught_up: false });

      proxy.restore();
      await shipAll([n]);
      expect(n.cluster.clusterStatus().access).toMatchObject({ state: 'shipping', shipped_through_id: before });
      const ref = await reference([...batch, ...spooled, ...(firstStored ? fixture(1, 9) : [])]);
      await expectSameAnalytics(n, ref, [1, 2]);
    } finally {
      for (const n of open.splice(0)) await n.cluster.close().catch(() => undefined);
      await proxy.close();
    }
  });

  it('refuses a bad query before asking PostgreSQL', async () => {
    const url = await freshDatabase(serverUrl);
    const n = await node(url);
    await expect(n.cluster.analytics({ site_id: 1, period: '1y' as AnalyticsPeriod })).rejects.toThrow(/period must be one of/);
    await expect(n.cluster.analytics({ site_id: -1, period: '7d' })).rejects.toThrow(/site_id/);
    await expect(n.cluster.analytics({ site_id: 1, period: '7d', now: Number.NaN })).rejects.toThrow(/now must be/);
  });
});

async function eventuallyAsync(test: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600 && !(await test()); i++) await new Promise((r) => setTimeout(r, 50));
  expect(await test()).toBe(true);
}

/** Waits until `test` holds, step by step on timers the shipper also uses; bounded by tries, not time. */
async function eventually(test: () => boolean): Promise<void> {
  for (let i = 0; i < 600 && !test(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(test()).toBe(true);
}

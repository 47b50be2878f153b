// WAF events in PostgreSQL against a real server, in this process: the shipper (exactly once
// across restarts and a lost cursor, backlog after an outage), the 503 while PostgreSQL is cut
// off, and /waf-logs giving the same pages and totals as the JSONL store for one fixture.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { WafctlError } from '../../shared/errors.js';
import type { NewWafEvent } from '../../shared/schemas/events.js';
import { NOW, wafEvent } from '../daemon/store/events/helpers.js';
import { openEventNode, rowIds, shippedCounts, type EventNode } from './event-node.js';
import { outageProxy } from './outage-proxy.js';
import { freshDatabase, sql, testPostgres } from './postgres.js';

const server = await testPostgres();
if (!server.ok) console.warn(server.skip);
const open: EventNode[] = [];
afterAll(async () => {
  for (const n of open.splice(0)) await n.cluster.close().catch(() => undefined);
  if (server.ok) await server.stop();
}, 60_000);

async function node(url: string, dir?: string): Promise<EventNode> {
  const n = await openEventNode(url, dir);
  open.push(n);
  return n;
}

async function closeNode(n: EventNode): Promise<void> {
  open.splice(open.indexOf(n), 1);
  await n.cluster.close();
}

const IPS = ['10.0.0.1', '10.0.0.2', '10.0.1.9', '10.1.0.1', '192.168.7.7', '2001:db8::1', '2001:DB8::2', '2001:db8:1::5', '::ffff:10.0.0.1'];
const RULES = ['942100', '942200', '200001', 'Rule-X', 'rate-limit'];
const GROUPS = ['crs', 'cms', 'Custom', 'rate-limit'];
const URIS = ['/wp-login.php', '/xmlrpc.php?a=1', '/etc/PASSWD', '/?q=union%20select', '/Ünïcode', '/wp-json/wp/v2', '/a+b?c=d+e', '/100%_sure'];

/** `n` events, one a second up to `end`: ids and times rise together, so both orders agree. */
function fixture(n: number, end: number, seed = 0): NewWafEvent[] {
  return Array.from({ length: n }, (_, i) => {
    const k = i + seed;
    return wafEvent({
      site_id: k % 5 === 0 ? 2 : 1,
      timestamp_ms: end - (n - i) * 1_000,
      client_ip: IPS[k % IPS.length]!,
      rule_id: RULES[(k * 7) % RULES.length]!,
      group: GROUPS[(k * 3) % GROUPS.length]!,
      uri: URIS[(k * 5) % URIS.length]!,
      request_id: `00000000-0000-4000-8000-${String(Math.floor(k / 3)).padStart(12, '0')}`,
      action: ['block', 'log', 'drop', undefined][k % 4],
    });
  });
}

describe.skipIf(!server.ok)('WAF events in PostgreSQL', () => {
  const serverUrl = server.ok ? server.url : '';

  it('ships every committed event exactly once, across restarts and a cursor set back', async () => {
    const url = await freshDatabase(serverUrl);
    const a = await node(url);
    // Several day segments, and a late event appended to an older day after newer ones.
    const days = [3, 2, 1, 0].flatMap((d) => fixture(700, NOW - d * 86_400_000, d));
    const ids = (await Promise.all([0, 1, 2, 3].map((i) => a.cluster.appendWafEvents(days.slice(i * 700, (i + 1) * 700))))).flat();
    ids.push(...(await a.cluster.appendWafEvents([wafEvent({ timestamp_ms: NOW - 3 * 86_400_000 + 5 })])));
    await a.cluster.shipper.whenShipped(Math.max(...ids));
    expect(await shippedCounts(url)).toEqual({ rows: ids.length, distinct: ids.length, cursor: Math.max(...ids) });
    const key = await readFile(join(a.dir, 'node-id'), 'utf8');

    // A restart: the same node (same key), more events, nothing shipped twice.
    await closeNode(a);
    const b = await node(url, a.dir);
    expect(await readFile(join(b.dir, 'node-id'), 'utf8')).toBe(key);
    const more = await b.cluster.appendWafEvents(fixture(50, NOW, 9));
    await b.cluster.shipper.whenShipped(Math.max(...more));
    expect(await shippedCounts(url)).toEqual({ rows: ids.length + 50, distinct: ids.length + 50, cursor: Math.max(...more) });

    // A commit whose cursor was lost (set back by hand): the restart sends the middle of every
    // segment again, and PostgreSQL keeps one row per (node, local id).
    await closeNode(b);
    await sql(url, "UPDATE wafctl_ship_cursor SET local_id = $1 WHERE kind = 'waf'", [ids[1000]]);
    const c = await node(url, a.dir);
    await c.cluster.shipper.whenShipped(Math.max(...more));
    expect(await shippedCounts(url)).toEqual({ rows: ids.length + 50, distinct: ids.length + 50, cursor: Math.max(...more) });
    expect(Number((await sql<{ n: string }>(url, 'SELECT count(*) AS n FROM wafctl_nodes'))[0]!.n)).toBe(1);
  });

  it('gives the pages and totals of the JSONL store for the same events, with stable as_of_id pages', async () => {
    const url = await freshDatabase(serverUrl);
    const n = await node(url);
    const ids = await n.cluster.appendWafEvents(fixture(400, NOW - 120_000));
    await n.cluster.shipper.whenShipped(Math.max(...ids));
    const searches = [
      undefined, '10.0.0.1', '::ffff:10.0.0.1', '2001:DB8::2', '10.0.0.0/16', '10.0.0.0/8', '2001:db8::/32', '0.0.0.0/0',
      '942100', 'rule-x', 'RULE:Rule-X', 'rate-limit', 'crs', 'custom', 'group:CMS', 'wp-', 'PASSWD', 'union select', '100%_',
      '%20', 'a b', 'uri:942100', 'nothing-matches', '00000000-0000-4000-8000-000000000007', 'ip:10.0.0.0/24',
    ];
    let round = 0;
    for (const search of searches) {
      for (const site of [1, 2]) {
        round++;
        const firstLocal = await n.local.searchWafLogs({ site_id: site, page: 1, per_page: 10, search, with_action: true });
        const firstPg = await n.cluster.searchWafLogs({ site_id: site, page: 1, per_page: 10, search, with_action: true });
        // Events arriving between pages change neither the pages nor the totals of the snapshot.
        // (Later than every event before them: both stores then list in the same order.)
        const late = await n.cluster.appendWafEvents(fixture(7, NOW - 60_000 + round * 10_000, 3));
        await n.cluster.shipper.whenShipped(Math.max(...late));
        const map = await rowIds(url);
        for (const page of [1, 2, 3]) {
          const local = page === 1 ? firstLocal : await n.local.searchWafLogs({ site_id: site, page, per_page: 10, search, before_id: firstLocal.as_of_id, with_action: true });
          const pg = page === 1 ? firstPg : await n.cluster.searchWafLogs({ site_id: site, page, per_page: 10, search, before_id: firstPg.as_of_id, with_action: true });
          const what = `search ${JSON.stringify(search)} site ${site} page ${page}`;
          expect(pg.pagination, what).toEqual(local.pagination);
          expect(pg.logs, what).toEqual(local.logs.map((l) => ({ ...l, id: map.get(l.id) })));
        }
      }
    }
  });

  it('answers 503 search_timeout when a search runs past its bound, and searches again after', async () => {
    const url = await freshDatabase(serverUrl);
    const n = await openEventNode(url, undefined, { searchTimeoutMs: 300 });
    open.push(n);
    await n.cluster.appendWafEventsShipped(fixture(30, NOW));
    // Another session holds the table: the search waits on its lock, which counts towards its bound.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE waf_events IN ACCESS EXCLUSIVE MODE');
      for (const search of [undefined, 'wp-login', '10.0.0.1']) {
        await expect(n.cluster.searchWafLogs({ site_id: 1, page: 1, per_page: 10, search })).rejects.toMatchObject({ code: 'search_timeout', status: 503 });
      }
      await holder.query('COMMIT');
    } finally {
      await holder.end();
    }
    const page = await n.cluster.searchWafLogs({ site_id: 1, page: 1, per_page: 10 });
    expect(page.pagination.total).toBe(fixture(30, NOW).filter((e) => e.site_id === 1).length);
  });

  it('answers 503 store_unavailable while PostgreSQL is cut off, and ships the backlog after', async () => {
    const url = await freshDatabase(serverUrl);
    const proxy = await outageProxy(url);
    try {
      const n = await node(proxy.url);
      const first = await n.cluster.appendWafEventsShipped(fixture(20, NOW));
      proxy.cut();
      await expect(n.cluster.searchWafLogs({ site_id: 1, page: 1, per_page: 10 })).rejects.toMatchObject({ code: 'store_unavailable', status: 503 });
      // The edge's events keep going to the spool meanwhile.
      const spooled = await n.cluster.appendWafEvents(fixture(30, NOW, 1));
      // Ingestion is refused (once the shipper has met the outage) and stores nothing.
      await expect(n.cluster.appendWafEventsShipped(fixture(1, NOW))).rejects.toBeInstanceOf(WafctlError);
      await eventually(() => n.cluster.shipper.health === 'unreachable');
      const before = n.local.stats().waf_events;
      await expect(n.cluster.appendWafEventsShipped(fixture(1, NOW))).rejects.toMatchObject({ code: 'store_unavailable' });
      expect(n.local.stats().waf_events).toBe(before);
      proxy.restore();
      await n.cluster.shipper.whenShipped(Math.max(...spooled));
      const counts = await shippedCounts(url);
      expect(counts.distinct).toBe(counts.rows);
      expect(counts.cursor).toBeGreaterThanOrEqual(Math.max(...spooled));
      expect(counts.rows).toBe(n.local.stats().waf_events);
      expect(first.length).toBe(20);
      const page = await n.cluster.searchWafLogs({ site_id: 1, page: 1, per_page: 10 });
      expect(page.pagination.total).toBe((await n.local.searchWafLogs({ site_id: 1, page: 1, per_page: 10 })).pagination.total);
    } finally {
      for (const n of open.splice(0)) await n.cluster.close().catch(() => undefined);
      await proxy.close();
    }
  });
});

/** Waits until `test` holds, step by step on timers the shipper also uses; bounded by tries, not time. */
async function eventually(test: () => boolean): Promise<void> {
  for (let i = 0; i < 600 && !test(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(test()).toBe(true);
}

// The cluster's /waf-logs (daemon/cluster/events/pg-waf-search.ts) against a brute-force scan of
// the same random events: the JSONL store's property (test/daemon/store/events/search-model.ts)
// run through the spool, the shipper and PostgreSQL. The cluster lists newest first by event time
// (ts, then row id), so the scan sorts the same way; row ids come from the table (local id -> row).
// Then more events arrive: pages read with the first answer's as_of_id do not change, and a new
// search finds them. One node and database for all runs; each run has two sites of its own.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewWafEvent } from '../../shared/schemas/events.js';
import { eventArb, eventsOf, matches, queryArb, searchText, type Query } from '../daemon/store/events/search-model.js';
import { openEventNode, rowIds, type EventNode } from './event-node.js';
import { freshDatabase, testPostgres } from './postgres.js';

const server = await testPostgres();
if (!server.ok) console.warn(server.skip);
let url = '';
let node: EventNode | undefined;
beforeAll(async () => {
  if (!server.ok) return;
  url = await freshDatabase(server.url);
  node = await openEventNode(url);
}, 60_000);
afterAll(async () => {
  await node?.cluster.close();
  if (server.ok) await server.stop();
}, 60_000);

/** The run's two sites: the model's sites 1 and 2, moved to ids no earlier run used. */
let lastSite = 0;
function ownSites(events: NewWafEvent[], first: number): NewWafEvent[] {
  return events.map((e) => ({ ...e, site_id: first + e.site_id - 1 }));
}

interface Stored extends NewWafEvent {
  row: number;
}

/** What the cluster must answer for `q` on `site`: matching rows, newest event first, then newest row. */
function expected(stored: readonly Stored[], site: number, q: Query, asOf?: number): Stored[] {
  return stored
    .filter((e) => e.site_id === site && matches(e, q) && (asOf === undefined || e.row <= asOf))
    .sort((a, b) => b.timestamp_ms - a.timestamp_ms || b.row - a.row);
}

/** Appends in a few concurrent calls, waits until PostgreSQL has them, and gives each its row id. */
async function ship(node: EventNode, events: NewWafEvent[], chunks: number): Promise<Stored[]> {
  // Nothing to ship, nothing to look up (the table may not exist yet: the first shipment makes it).
  if (events.length === 0) return [];
  const size = Math.ceil(events.length / chunks) || 1;
  const parts = Array.from({ length: chunks }, (_, i) => events.slice(i * size, (i + 1) * size));
  const ids = (await Promise.all(parts.map((p) => node.cluster.appendWafEvents(p)))).flat();
  await node.cluster.shipper.whenShipped(Math.max(...ids));
  const rows = await rowIds(url);
  return events.map((e, i) => ({ ...e, row: rows.get(ids[i]!)! }));
}

const ids = (logs: ReadonlyArray<{ id: number }>) => logs.map((l) => l.id);

describe.skipIf(!server.ok)('the cluster search matches a brute-force scan', () => {
  it('totals, pages and order; as_of_id pages unchanged by events that arrive after', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(eventArb, { minLength: 0, maxLength: 80 }),
        fc.array(fc.tuple(queryArb, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 25 })), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 3 }),
        fc.array(eventArb, { minLength: 1, maxLength: 30 }),
        async (raw, queries, chunks, rawLater) => {
          const n = node!;
          const first = lastSite + 1;
          lastSite += 2;
          const sites = [first, first + 1];
          const stored = await ship(n, ownSites(eventsOf(raw), first), chunks);
          const snapshots = new Map<string, { asOf: number; page: number[] }>();
          for (const [q, page, perPage] of queries) {
            for (const site of sites) {
              const want = expected(stored, site, q);
              const got = await n.cluster.searchWafLogs({ site_id: site, page, per_page: perPage, search: searchText(q) });
              expect(got.pagination.total).toBe(want.length);
              expect(got.pagination.total_pages).toBe(Math.ceil(want.length / perPage));
              const slice = want.slice((page - 1) * perPage, page * perPage);
              expect(ids(got.logs)).toEqual(slice.map((e) => e.row));
              expect(got.logs.map((l) => [l.client_ip, l.uri, l.waf_rule_id, l.group, l.host])).toEqual(slice.map((e) => [e.client_ip, e.uri, e.rule_id, e.group, e.host]));
              const key = `${site} ${JSON.stringify(q)} ${page} ${perPage}`;
              snapshots.set(key, { asOf: got.as_of_id, page: ids(got.logs) });
            }
          }

          // Later events (some newer, some older than what is there) change no snapshot page.
          stored.push(...(await ship(n, ownSites(eventsOf(rawLater), first), 1)));
          for (const [q, page, perPage] of queries) {
            for (const site of sites) {
              const snapshot = snapshots.get(`${site} ${JSON.stringify(q)} ${page} ${perPage}`)!;
              const again = await n.cluster.searchWafLogs({ site_id: site, page, per_page: perPage, search: searchText(q), before_id: snapshot.asOf });
              expect(ids(again.logs)).toEqual(snapshot.page);
              expect(again.pagination.total).toBe(expected(stored, site, q, snapshot.asOf).length);
              const now = await n.cluster.searchWafLogs({ site_id: site, page: 1, per_page: 1000, search: searchText(q) });
              expect(ids(now.logs)).toEqual(expected(stored, site, q).map((e) => e.row));
            }
          }
        },
      ),
      { numRuns: 30 },
    );
  }, 240_000);
});

// One shipped batch: the events and the node's cursor in one transaction, so a crash anywhere
// ships each event exactly once (a batch that committed is never sent again; one that did not
// is sent again whole, and ON CONFLICT drops any row PostgreSQL already has). Every shipping
// transaction holds the shared side of the events snapshot lock (advisory-locks.ts) while its ids
// are uncommitted; a search that fixes `as_of_id` takes the exclusive side for an instant
// (pg-waf-search.ts), so every id at or below the snapshot is already committed and later pages
// never gain rows.
import type { Pool } from 'pg';
import { ADVISORY_LOCKS } from '../advisory-locks.js';
import type { StoredWafEvent } from '../../../shared/schemas/events.js';
import { checkout } from './checkout.js';
import { writeShipCursor } from './node-identity.js';
import { wafEventRow } from './waf-event-row.js';
import { createWeeks, weekOfMs } from './week-partitions.js';

const INSERT = `
INSERT INTO waf_events (ts, site_id, node_id, local_id, client_ip, rule_key, grp_key, uri_key, uri_decoded, request_id, doc)
SELECT t.ts, t.site_id, $1, t.local_id, t.client_ip, t.rule_key, t.grp_key, t.uri_key, t.uri_decoded, t.request_id, t.doc
FROM unnest($2::timestamptz[], $3::bigint[], $4::bigint[], $5::inet[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::json[])
  WITH ORDINALITY AS t(ts, site_id, local_id, client_ip, rule_key, grp_key, uri_key, uri_decoded, request_id, doc, n)
ORDER BY t.n
ON CONFLICT (node_id, local_id, ts) DO NOTHING`;

/** Weeks whose partition this process knows to exist; cleared when an insert finds one missing. */
export class KnownWeeks {
  readonly weeks = new Set<number>();
}

/**
 * Ships `events` (local id order) and sets the cursor to `through`. Events before `visibleFrom`
 * are past retention, invisible to every search and about to be dropped: they are not inserted,
 * only stepped over. Returns the rows inserted (fewer than sent when some were already there).
 */
export async function shipBatch(pool: Pool, nodeId: number, events: readonly StoredWafEvent[], through: number, visibleFrom: number, known: KnownWeeks): Promise<number> {
  const rows = events.filter((e) => e.timestamp_ms >= visibleFrom).map(wafEventRow);
  const missing = [...new Set(rows.map((r) => weekOfMs(Date.parse(r.ts))))].filter((w) => !known.weeks.has(w));
  const { client, release } = await checkout(pool);
  let broken: Error | undefined;
  try {
    if (missing.length > 0) {
      await client.query('BEGIN');
      await createWeeks(client, missing);
      await client.query('COMMIT');
      for (const w of missing) known.weeks.add(w);
    }
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock_shared($1)', [ADVISORY_LOCKS.eventsSnapshot]);
    const inserted = rows.length === 0 ? 0 : (await client.query(INSERT, [
      nodeId,
      rows.map((r) => r.ts), rows.map((r) => r.site_id), rows.map((r) => r.local_id), rows.map((r) => r.client_ip),
      rows.map((r) => r.rule_key), rows.map((r) => r.grp_key), rows.map((r) => r.uri_key), rows.map((r) => r.uri_decoded),
      rows.map((r) => r.request_id), rows.map((r) => r.doc),
    ])).rowCount ?? 0;
    await writeShipCursor(client, nodeId, 'waf', through);
    await client.query('COMMIT');
    return inserted;
  } catch (error) {
    // 23514: no partition for a row (another node's retention dropped a week this process knew).
    if ((error as { code?: string }).code === '23514') known.weeks.clear();
    await client.query('ROLLBACK').catch((rollback: Error) => { broken = rollback; });
    throw error;
  } finally {
    release(broken);
  }
}

// One shipped batch of access entries: their rollup deltas (one row per site and hour of the
// batch) and the node's access cursor in one transaction. A batch that committed is never sent
// again (the shipper re-reads the cursor after any failure), one that did not is sent again whole:
// each entry is counted once. Raw access entries are not shipped (shared/design/scale-out.md 5.6).
import type { Pool } from 'pg';
import type { StoredAccessEntry } from '../../../shared/schemas/events.js';
import { accessDeltas, sketchBytes } from './access-deltas.js';
import { checkout } from './checkout.js';
import { writeShipCursor } from './node-identity.js';

const INSERT = `
INSERT INTO access_deltas (site_id, hour, node_id, requests, blocked, visitors)
SELECT t.site_id, t.hour, $1, t.requests, t.blocked, t.visitors
FROM unnest($2::bigint[], $3::integer[], $4::bigint[], $5::bigint[], $6::bytea[]) AS t(site_id, hour, requests, blocked, visitors)`;

/** Returns the entries counted (those inside retention). */
export async function shipAccessBatch(pool: Pool, nodeId: number, entries: readonly StoredAccessEntry[], through: number, visibleFrom: number): Promise<number> {
  const deltas = accessDeltas(entries, visibleFrom);
  const { client, release } = await checkout(pool);
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    if (deltas.length > 0) {
      await client.query(INSERT, [
        nodeId, deltas.map((d) => d.site_id), deltas.map((d) => d.hour), deltas.map((d) => d.requests),
        deltas.map((d) => d.blocked), deltas.map((d) => sketchBytes(d.visitors)),
      ]);
    }
    await writeShipCursor(client, nodeId, 'access', through);
    await client.query('COMMIT');
    return deltas.reduce((n, d) => n + d.requests, 0);
  } catch (error) {
    await client.query('ROLLBACK').catch((rollback: Error) => { broken = rollback; });
    throw error;
  } finally {
    release(broken);
  }
}

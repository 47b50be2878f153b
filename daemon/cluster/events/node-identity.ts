// A node's identity in the cluster's event tables. The node key is a UUID made once and kept in
// the events directory, beside the spool whose local ids it qualifies: local ids restart only
// when that directory is emptied, and then the key goes with it, so (node, local id) never names
// two events. PostgreSQL maps the key to a small integer that every shipped row carries.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Pool, PoolClient } from 'pg';
import { readTrustedFile, replaceFile } from '../../lifecycle/safe-open.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `<eventsDir>/node-id`, created on first use. */
export async function nodeKey(eventsDir: string): Promise<string> {
  const file = path.join(eventsDir, 'node-id');
  const existing = (await readTrustedFile(file))?.toString('utf8').trim();
  if (existing !== undefined && UUID_RE.test(existing)) return existing;
  if (existing !== undefined) throw new Error(`${file} does not hold a node id (a UUID); move it away to make a new one`);
  const key = randomUUID();
  await replaceFile(file, `${key}\n`, 0o600);
  return key;
}

/** The node's number in wafctl_nodes, registered on first use; records when it was last seen. */
export async function registerNode(pool: Pool, key: string): Promise<number> {
  const { rows } = await pool.query<{ node_id: number }>(
    `INSERT INTO wafctl_nodes (node_key, hostname) VALUES ($1, $2)
     ON CONFLICT (node_key) DO UPDATE SET hostname = EXCLUDED.hostname, seen_at = now()
     RETURNING node_id`,
    [key, hostname()],
  );
  return rows[0]!.node_id;
}

/** What a shipper ships: each kind has its own cursor (the kinds share the local id sequence). */
export type ShipKind = 'waf' | 'access';

/** The last local id of `kind` this node has in PostgreSQL (0 before its first batch). */
export async function readShipCursor(pool: Pool, nodeId: number, kind: ShipKind): Promise<number> {
  const { rows } = await pool.query<{ local_id: string }>('SELECT local_id FROM wafctl_ship_cursor WHERE node_id = $1 AND kind = $2', [nodeId, kind]);
  return rows.length === 0 ? 0 : Number(rows[0]!.local_id);
}

/** Moves the cursor of `kind` to `through`, inside the transaction that stored the batch (never back). */
export async function writeShipCursor(client: PoolClient, nodeId: number, kind: ShipKind, through: number): Promise<void> {
  await client.query(
    `INSERT INTO wafctl_ship_cursor (node_id, kind, local_id) VALUES ($1, $2, $3)
     ON CONFLICT (node_id, kind) DO UPDATE SET local_id = GREATEST(wafctl_ship_cursor.local_id, EXCLUDED.local_id), shipped_at = now()`,
    [nodeId, kind, through],
  );
}

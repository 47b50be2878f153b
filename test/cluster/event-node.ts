// An in-process cluster node's event side for the cluster event tests: a JSONL store in its own
// directory (the spool) wrapped by the ClusterEventStore, with a short shipper poll.
import { pino } from 'pino';
import { openClusterEventStore, type ClusterEventStore } from '../../daemon/cluster/events/cluster-event-store.js';
import { openJsonlEventStore, type JsonlEventStore } from '../../daemon/store/events/jsonl-event-store.js';
import { memoryLogger, NOW, tempDir } from '../daemon/store/events/helpers.js';
import { sql } from './postgres.js';

export interface EventNode {
  dir: string;
  local: JsonlEventStore;
  cluster: ClusterEventStore;
}

/** `compactEveryMs`: the access compactor's period (default: an hour, so a test folds when it says so). */
export async function openEventNode(url: string, dir = tempDir('wafctl-cluster-events-'), o: { compactEveryMs?: number; searchTimeoutMs?: number } = {}): Promise<EventNode> {
  const local = await openJsonlEventStore({ dir, clock: () => NOW, logger: memoryLogger(), retentionEveryMs: 0, snapshotEveryMs: 0 });
  const cluster = await openClusterEventStore({ url, local, logger: pino({ level: 'silent' }), clock: () => NOW, pollMs: 50, compactEveryMs: o.compactEveryMs ?? 3_600_000, searchTimeoutMs: o.searchTimeoutMs });
  return { dir, local, cluster };
}

/** Local id -> cluster row id of every shipped event of the database. */
export async function rowIds(url: string): Promise<Map<number, number>> {
  const rows = await sql<{ id: string; local_id: string }>(url, 'SELECT id, local_id FROM waf_events');
  return new Map(rows.map((r) => [Number(r.local_id), Number(r.id)]));
}

export async function shippedCounts(url: string): Promise<{ rows: number; distinct: number; cursor: number }> {
  const [c] = await sql<{ rows: string; distinct: string }>(url, 'SELECT count(*) AS rows, count(DISTINCT (node_id, local_id)) AS distinct FROM waf_events');
  const cur = await sql<{ local_id: string }>(url, "SELECT local_id FROM wafctl_ship_cursor WHERE kind = 'waf'");
  return { rows: Number(c!.rows), distinct: Number(c!.distinct), cursor: cur.length ? Number(cur[0]!.local_id) : 0 };
}

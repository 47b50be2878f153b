// GET /waf-logs/{id} in cluster mode: the WAF events of one request, from waf_events. An id is a
// row id of the cluster (what /waf-logs lists); the row's request id finds its siblings. The
// status the edge answered is in the access entries, which are not shipped (only rollups will
// be): the detail has no status in cluster mode.
import type { Pool } from 'pg';
import type { StoredWafEvent } from '../../../shared/schemas/events.js';
import type { RequestEvents, RequestKey } from '../../store/events/request-lookup.js';

export async function wafRequestPg(pool: Pool, siteId: number, key: RequestKey, visibleFrom: number): Promise<RequestEvents> {
  const from = new Date(visibleFrom).toISOString();
  let requestId: string;
  if ('id' in key) {
    const { rows } = await pool.query<{ id: string; doc: Record<string, unknown> }>(
      'SELECT id, doc FROM waf_events WHERE id = $1 AND site_id = $2 AND ts >= $3', [key.id, siteId, from],
    );
    if (rows.length === 0) return { events: [] };
    const hit = storedOf(rows[0]!);
    // An event without a request id (ingested through the API) is a request of its own.
    if (typeof hit.request_id !== 'string') return { events: [hit] };
    requestId = hit.request_id;
  } else {
    requestId = key.request_id;
  }
  const { rows } = await pool.query<{ id: string; doc: Record<string, unknown> }>(
    'SELECT id, doc FROM waf_events WHERE site_id = $1 AND request_id = $2 AND ts >= $3 ORDER BY id', [siteId, requestId, from],
  );
  return { events: rows.map(storedOf) };
}

function storedOf(row: { id: string; doc: Record<string, unknown> }): StoredWafEvent {
  return { ...(row.doc as Omit<StoredWafEvent, 'id'>), id: Number(row.id) };
}

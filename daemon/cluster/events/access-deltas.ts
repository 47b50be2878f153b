// Access entries become rollup deltas before they leave the node: per site and UTC hour, the
// requests, the blocked ones and a HyperLogLog sketch of the client IPs, derived exactly as the
// JSONL store's rollups derive them (store/events/access-rollups.ts: hour of `timestamp`, the IP
// trimmed and lower-cased, `blocked` as stored). Register max is a union, so folding deltas from
// any number of nodes, in any order, gives the registers one store would hold for all the entries:
// the same estimate, not merely a close one.
import type { StoredAccessEntry } from '../../../shared/schemas/events.js';
import { HLL_M, HyperLogLog, hllKey } from '../../store/events/hyperloglog.js';

export interface AccessDelta {
  site_id: number;
  /** Hours since the epoch, UTC. */
  hour: number;
  requests: number;
  blocked: number;
  visitors: HyperLogLog;
}

/** The deltas of a batch; entries before `visibleFromMs` (past retention) are left out. */
export function accessDeltas(entries: readonly StoredAccessEntry[], visibleFromMs: number): AccessDelta[] {
  const bySiteHour = new Map<string, AccessDelta>();
  for (const e of entries) {
    if (e.timestamp * 1000 < visibleFromMs) continue;
    const hour = Math.floor(e.timestamp / 3600);
    const key = `${e.site_id}:${hour}`;
    let d = bySiteHour.get(key);
    if (!d) bySiteHour.set(key, (d = { site_id: e.site_id, hour, requests: 0, blocked: 0, visitors: new HyperLogLog() }));
    d.requests++;
    if (e.blocked) d.blocked++;
    d.visitors.addKey(hllKey(e.client_ip.trim().toLowerCase()));
  }
  return [...bySiteHour.values()];
}

/** A sketch as a column stores it: HyperLogLog.toBytes, copied (the sketch may change after). */
export function sketchBytes(h: HyperLogLog): Buffer {
  return Buffer.from(h.toBytes());
}

/**
 * A sketch from a column. Copied into a buffer of its own: node-postgres hands out slices of a
 * shared buffer, and a sparse sketch is read as 32-bit words, which need an aligned offset.
 */
export function sketchFromColumn(bytes: Buffer): HyperLogLog {
  if (bytes.length !== HLL_M && (bytes.length % 4 !== 0 || bytes.length > HLL_M)) {
    throw new Error(`a visitors sketch of ${bytes.length} bytes is neither dense (${HLL_M}) nor sparse (a multiple of 4)`);
  }
  return HyperLogLog.fromBytes(new Uint8Array(bytes));
}

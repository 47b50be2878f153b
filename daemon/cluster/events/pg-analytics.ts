// /analytics from the cluster's access rollups: the same answer as the single node's
// (store/events/access-rollups.ts) for the same entries. Counts per hour add the folded hourly
// rows and the deltas not folded yet; unique visitors merge the daily sketches of the days wholly
// inside the period, the hourly sketches of the hours at its edges and every unfolded delta, which
// is the union of the registers of every entry in the period, as on one node. All of it is read in
// one REPEATABLE READ snapshot, so the compactor folding meanwhile moves nothing in or out twice.
import type { Pool } from 'pg';
import type { Analytics, AnalyticsPeriod } from '../../../shared/schemas/events.js';
import { PERIOD_HOURS } from '../../../shared/schemas/events.js';
import { HLL_M, estimateRegisters } from '../../store/events/hyperloglog.js';
import { MS_PER_HOUR } from '../../store/events/segment-names.js';
import { sketchFromColumn } from './access-deltas.js';
import { checkout } from './checkout.js';

/** $1 site, [$2, $3) the period's hours, [$4, $5) its whole days (in hours): edge hours bring their sketch. */
const HOURS = `
SELECT hour, requests, blocked, CASE WHEN hour < $4 OR hour >= $5 THEN visitors END AS visitors
FROM access_hourly WHERE site_id = $1 AND hour >= $2 AND hour < $3`;
const DELTAS = 'SELECT hour, requests, blocked, visitors FROM access_deltas WHERE site_id = $1 AND hour >= $2 AND hour < $3';
const DAYS = 'SELECT visitors FROM access_daily WHERE site_id = $1 AND day >= $2 AND day < $3';

interface HourRow {
  hour: number;
  requests: string;
  blocked: string;
  visitors: Buffer | null;
}

export async function analyticsPg(pool: Pool, siteId: number, period: AnalyticsPeriod, nowMs: number): Promise<Analytics> {
  const n = PERIOD_HOURS[period];
  const end = Math.ceil(nowMs / MS_PER_HOUR);
  const start = end - n;
  const firstDay = Math.ceil(start / 24);
  const endDay = Math.max(firstDay, Math.floor(end / 24));
  const { client, release } = await checkout(pool);
  let broken: Error | undefined;
  let hours: HourRow[];
  let deltas: HourRow[];
  let days: { visitors: Buffer }[];
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    hours = (await client.query<HourRow>(HOURS, [siteId, start, end, firstDay * 24, endDay * 24])).rows;
    deltas = (await client.query<HourRow>(DELTAS, [siteId, start, end])).rows;
    days = endDay > firstDay ? (await client.query<{ visitors: Buffer }>(DAYS, [siteId, firstDay, endDay])).rows : [];
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch((rollback: Error) => { broken = rollback; });
    throw error;
  } finally {
    release(broken);
  }

  const requests = new Float64Array(n);
  const blocked = new Float64Array(n);
  const registers = new Uint8Array(HLL_M);
  for (const r of [...hours, ...deltas]) {
    requests[r.hour - start] += Number(r.requests);
    blocked[r.hour - start] += Number(r.blocked);
    if (r.visitors) sketchFromColumn(r.visitors).mergeInto(registers);
  }
  const any = hours.length + deltas.length > 0;
  if (any) for (const d of days) sketchFromColumn(d.visitors).mergeInto(registers);
  let total = 0;
  let totalBlocked = 0;
  const hourly_data = Array.from({ length: n }, (_, i) => {
    total += requests[i]!;
    totalBlocked += blocked[i]!;
    return { hour: new Date((start + i) * MS_PER_HOUR).toISOString(), requests: requests[i]!, blocked: blocked[i]! };
  });
  return { period, total_requests: total, unique_visitors: any ? estimateRegisters(registers) : 0, requests_blocked: totalBlocked, hourly_data };
}

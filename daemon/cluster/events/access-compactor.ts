// The access compactor: folds the rollup deltas every node ships into one row per site and hour
// (`access_hourly`: counts and a sketch) and one sketch per site and UTC day (`access_daily`), so
// a 90-day /analytics reads about 90 daily and 48 hourly sketches, the shape the single node's
// rollups have. Sketches are merged here, in Node, with the store's own HyperLogLog (no extension
// needed on a managed PostgreSQL). Every node runs it every few seconds; a transaction-level
// try-lock lets one at a time do the work, and the deltas it folds are deleted in the same
// transaction, so a crash folds nothing twice. Readers see deltas and folded rows from one
// snapshot (pg-analytics.ts), so an answer never counts a delta both ways or neither.
import type { Pool, PoolClient } from 'pg';
import type { Logger } from 'pino';
import { ADVISORY_LOCKS } from '../advisory-locks.js';
import { isUnreachable } from '../unreachable.js';
import { HyperLogLog } from '../../store/events/hyperloglog.js';
import { sketchBytes, sketchFromColumn } from './access-deltas.js';
import { checkout } from './checkout.js';

/** Deltas folded per transaction: bounds its memory (a dense sketch is 32 KiB) and lock time. */
const FOLD_BATCH = 2_000;

interface Folded {
  requests: number;
  blocked: number;
  visitors: HyperLogLog;
}

export interface CompactionReport {
  /** False when another node held the lock. */
  ran: boolean;
  /** Deltas folded. */
  folded: number;
}

/** Folds every delta committed when it starts, in batches of FOLD_BATCH. */
export async function compactAccess(pool: Pool): Promise<CompactionReport> {
  let folded = 0;
  for (;;) {
    const step = await foldOnce(pool);
    if (!step.ran) return { ran: folded > 0, folded };
    folded += step.folded;
    if (step.folded < FOLD_BATCH) return { ran: true, folded };
  }
}

async function foldOnce(pool: Pool): Promise<CompactionReport> {
  const { client, release } = await checkout(pool);
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const { rows: lock } = await client.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS got', [ADVISORY_LOCKS.accessCompaction]);
    if (!lock[0]!.got) {
      await client.query('COMMIT');
      return { ran: false, folded: 0 };
    }
    const { rows } = await client.query<{ site_id: string; hour: number; requests: string; blocked: string; visitors: Buffer }>(
      `DELETE FROM access_deltas WHERE id IN (SELECT id FROM access_deltas ORDER BY id LIMIT ${FOLD_BATCH})
       RETURNING site_id, hour, requests, blocked, visitors`,
    );
    const hours = new Map<string, Folded & { site: number; hour: number }>();
    for (const r of rows) {
      const key = `${r.site_id}:${r.hour}`;
      const sketch = sketchFromColumn(r.visitors);
      const h = hours.get(key);
      if (!h) {
        hours.set(key, { site: Number(r.site_id), hour: r.hour, requests: Number(r.requests), blocked: Number(r.blocked), visitors: sketch });
        continue;
      }
      h.requests += Number(r.requests);
      h.blocked += Number(r.blocked);
      h.visitors.merge(sketch);
    }
    await foldHours(client, [...hours.values()]);
    await client.query('COMMIT');
    return { ran: true, folded: rows.length };
  } catch (error) {
    await client.query('ROLLBACK').catch((rollback: Error) => { broken = rollback; });
    throw error;
  } finally {
    release(broken);
  }
}

/** Adds the folded hours to their hourly rows and their sketches to the days' sketches. */
async function foldHours(client: PoolClient, hours: readonly (Folded & { site: number; hour: number })[]): Promise<void> {
  if (hours.length === 0) return;
  const sites = hours.map((h) => h.site);
  const hourNos = hours.map((h) => h.hour);
  const { rows: existing } = await client.query<{ site_id: string; hour: number; requests: string; blocked: string; visitors: Buffer }>(
    `SELECT a.site_id, a.hour, a.requests, a.blocked, a.visitors FROM access_hourly a
     JOIN unnest($1::bigint[], $2::integer[]) AS k(site_id, hour) ON a.site_id = k.site_id AND a.hour = k.hour`,
    [sites, hourNos],
  );
  const byKey = new Map(hours.map((h) => [`${h.site}:${h.hour}`, h]));
  for (const r of existing) {
    const h = byKey.get(`${r.site_id}:${r.hour}`)!;
    h.requests += Number(r.requests);
    h.blocked += Number(r.blocked);
    h.visitors.merge(sketchFromColumn(r.visitors));
  }
  await client.query(
    `INSERT INTO access_hourly (site_id, hour, requests, blocked, visitors)
     SELECT * FROM unnest($1::bigint[], $2::integer[], $3::bigint[], $4::bigint[], $5::bytea[])
     ON CONFLICT (site_id, hour) DO UPDATE SET requests = EXCLUDED.requests, blocked = EXCLUDED.blocked, visitors = EXCLUDED.visitors`,
    [sites, hourNos, hours.map((h) => h.requests), hours.map((h) => h.blocked), hours.map((h) => sketchBytes(h.visitors))],
  );

  const days = new Map<string, { site: number; day: number; visitors: HyperLogLog }>();
  for (const h of hours) {
    const day = Math.floor(h.hour / 24);
    const key = `${h.site}:${day}`;
    let d = days.get(key);
    if (!d) days.set(key, (d = { site: h.site, day, visitors: new HyperLogLog() }));
    // The hour's sketch now holds the whole hour: what the day had of it merges again harmlessly (max).
    d.visitors.merge(h.visitors);
  }
  const dayList = [...days.values()];
  const { rows: existingDays } = await client.query<{ site_id: string; day: number; visitors: Buffer }>(
    `SELECT a.site_id, a.day, a.visitors FROM access_daily a
     JOIN unnest($1::bigint[], $2::integer[]) AS k(site_id, day) ON a.site_id = k.site_id AND a.day = k.day`,
    [dayList.map((d) => d.site), dayList.map((d) => d.day)],
  );
  for (const r of existingDays) days.get(`${r.site_id}:${r.day}`)!.visitors.merge(sketchFromColumn(r.visitors));
  await client.query(
    `INSERT INTO access_daily (site_id, day, visitors)
     SELECT * FROM unnest($1::bigint[], $2::integer[], $3::bytea[])
     ON CONFLICT (site_id, day) DO UPDATE SET visitors = EXCLUDED.visitors`,
    [dayList.map((d) => d.site), dayList.map((d) => d.day), dayList.map((d) => sketchBytes(d.visitors))],
  );
}

/** Deletes rollups of hours before the retention cut-off (inside the partition job's transaction). */
export async function dropExpiredRollups(client: PoolClient, visibleFromMs: number): Promise<void> {
  const hour = Math.floor(visibleFromMs / 3_600_000);
  await client.query('DELETE FROM access_deltas WHERE hour < $1', [hour]);
  await client.query('DELETE FROM access_hourly WHERE hour < $1', [hour]);
  await client.query('DELETE FROM access_daily WHERE day < $1', [Math.floor(hour / 24)]);
}

/**
 * Runs the compactor every `everyMs`; failures are logged once per outage (the next run tries
 * again). The returned stop waits for a run in progress, so the pool can be closed after it.
 */
export function scheduleAccessCompaction(pool: Pool, o: { logger: Logger; everyMs?: number; ready: () => Promise<void> }): () => Promise<void> {
  let running: Promise<void> | null = null;
  let unreachable = false;
  const run = (): void => {
    if (running) return;
    running = o.ready()
      .then(() => compactAccess(pool))
      .then(() => { unreachable = false; })
      .catch((error: unknown) => {
        if (!isUnreachable(error)) o.logger.error({ err: error }, 'access rollups: compaction failed');
        else if (!unreachable) o.logger.warn({ err: error }, 'access rollups: PostgreSQL unreachable, compaction waits');
        unreachable = isUnreachable(error);
      })
      .finally(() => { running = null; });
  };
  const timer = setInterval(run, o.everyMs ?? 5_000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

// The week partitions of waf_events: names, ranges, creation ahead of time and on demand, and
// retention by dropping whole weeks. A week runs Monday 00:00 UTC to the next Monday. A
// partition is dropped once every one of its days is before the retention cut-off; searches add
// `ts >= cut-off` (pg-waf-search.ts), so what is visible is exactly what the JSONL store keeps:
// the last `retentionDays` full UTC days plus today.
import type { PoolClient } from 'pg';
import { dayName, MS_PER_DAY } from '../../store/events/segment-names.js';
import { ADVISORY_LOCKS } from '../advisory-locks.js';

/** The Monday (a day number since the epoch) of `day`'s week; day 0, 1970-01-01, was a Thursday. */
export const weekOfDay = (day: number): number => day - ((((day + 3) % 7) + 7) % 7);
export const weekOfMs = (ms: number): number => weekOfDay(Math.floor(ms / MS_PER_DAY));

export const partitionName = (week: number): string => `waf_events_w${dayName(week).replaceAll('-', '')}`;
const NAME_RE = /^waf_events_w(\d{4})(\d{2})(\d{2})$/;

/** The first visible day (ms) when `now` is the time: the same cut-off as the JSONL store's retention. */
export function visibleFromMs(now: number, retentionDays: number): number {
  return (Math.floor(now / MS_PER_DAY) - retentionDays) * MS_PER_DAY;
}

/**
 * Creates the partitions of `weeks` that do not exist yet, inside the caller's transaction and
 * under the schema lock (two nodes creating the same partition at once would fail on the catalog).
 */
export async function createWeeks(client: PoolClient, weeks: Iterable<number>): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCKS.eventsSchema]);
  for (const week of new Set(weeks)) {
    const from = new Date(week * MS_PER_DAY).toISOString();
    const to = new Date((week + 7) * MS_PER_DAY).toISOString();
    await client.query(`CREATE TABLE IF NOT EXISTS ${partitionName(week)} PARTITION OF waf_events FOR VALUES FROM ('${from}') TO ('${to}')`);
  }
}

/** Drops the week partitions whose last day is before the cut-off; returns their names. */
export async function dropExpiredWeeks(client: PoolClient, visibleFrom: number): Promise<string[]> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCKS.eventsSchema]);
  const { rows } = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'waf_events'::regclass`,
  );
  const dropped: string[] = [];
  for (const { name } of rows) {
    const m = NAME_RE.exec(name);
    if (!m) continue; // not ours: an operator's own partition is left alone
    const week = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / MS_PER_DAY;
    if ((week + 7) * MS_PER_DAY > visibleFrom) continue;
    await client.query(`DROP TABLE IF EXISTS ${name}`);
    dropped.push(name);
  }
  return dropped;
}

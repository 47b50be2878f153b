// The partition job: this week's and next week's partitions made ahead of time, weeks past
// retention dropped, and access rollups of days past retention deleted. Every node runs it hourly; a transaction-level advisory lock taken with
// try-lock lets exactly one node do the work at a time, with no leader to elect or lose (a node
// that dies mid-job releases the lock with its connection). The shipper also creates a missing
// week on demand (a late or far-future event), so a job that has not run yet loses nothing.
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { MS_PER_DAY } from '../../store/events/segment-names.js';
import { ADVISORY_LOCKS } from '../advisory-locks.js';
import { isUnreachable } from '../unreachable.js';
import { dropExpiredRollups } from './access-compactor.js';
import { checkout } from './checkout.js';
import { createWeeks, dropExpiredWeeks, visibleFromMs, weekOfMs } from './week-partitions.js';

export interface PartitionJobReport {
  ran: boolean;
  dropped: string[];
}

export async function runPartitionJob(pool: Pool, now: number, retentionDays: number): Promise<PartitionJobReport> {
  const { client, release } = await checkout(pool);
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS got', [ADVISORY_LOCKS.partitionJob]);
    if (!rows[0]!.got) {
      await client.query('COMMIT');
      return { ran: false, dropped: [] };
    }
    const week = weekOfMs(now);
    await createWeeks(client, [week, week + 7, weekOfMs(now + MS_PER_DAY)]);
    const dropped = await dropExpiredWeeks(client, visibleFromMs(now, retentionDays));
    await dropExpiredRollups(client, visibleFromMs(now, retentionDays));
    await client.query('COMMIT');
    return { ran: true, dropped };
  } catch (error) {
    await client.query('ROLLBACK').catch((rollback: Error) => { broken = rollback; });
    throw error;
  } finally {
    release(broken);
  }
}

/** Runs the job now and every `everyMs`; failures are logged (the next run tries again). */
export function schedulePartitionJob(pool: Pool, o: { retentionDays: number; logger: Logger; clock: () => number; everyMs?: number; ready: () => Promise<void> }): () => void {
  const run = (): void => {
    o.ready()
      .then(() => runPartitionJob(pool, o.clock(), o.retentionDays))
      .then((r) => { if (r.dropped.length > 0) o.logger.info({ dropped: r.dropped }, 'waf_events: dropped week partitions past retention'); })
      .catch((error: unknown) => {
        if (isUnreachable(error)) o.logger.warn({ err: error }, 'waf_events partition job: PostgreSQL unreachable, next run later');
        else o.logger.error({ err: error }, 'waf_events partition job failed');
      });
  };
  run();
  const timer = setInterval(run, o.everyMs ?? 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}

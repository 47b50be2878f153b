// While PostgreSQL is away the node's spool (its events directory) only grows, and a full disk
// would stop the edge's event writes and the config cache alike. Every minute, while a shipper
// has a backlog, the filesystem of the spool is looked at: one warning when it passes 80 % used,
// one line when it is back under, none in between.
import { statfs } from 'node:fs/promises';
import type { Logger } from 'pino';

export const SPOOL_WARN_FRACTION = 0.8;

export interface SpoolWatchOptions {
  dir: string;
  /** Whether entries wait to ship. */
  behind(): boolean;
  logger: Logger;
  everyMs?: number;
  /** The filesystem's used fraction (tests give their own). */
  usedFraction?: (dir: string) => Promise<number>;
}

async function usedFractionOf(dir: string): Promise<number> {
  const s = await statfs(dir);
  return s.blocks === 0 ? 0 : 1 - s.bavail / s.blocks;
}

/** Starts watching; returns the function that stops it. */
export function watchSpool(o: SpoolWatchOptions): { stop(): void; check(): Promise<void> } {
  let warned = false;
  const used = o.usedFraction ?? usedFractionOf;
  const check = async (): Promise<void> => {
    const behind = o.behind();
    if (!behind && !warned) return;
    let fraction: number;
    try {
      fraction = await used(o.dir);
    } catch {
      return; // the directory is gone (a test's teardown, a disk unmounted): the writes say more
    }
    if (!warned && behind && fraction >= SPOOL_WARN_FRACTION) {
      warned = true;
      o.logger.warn({ dir: o.dir, used_percent: Math.round(fraction * 100) }, 'cluster events: the spool\'s disk is over 80 % full while entries wait for PostgreSQL');
    } else if (warned && fraction < SPOOL_WARN_FRACTION) {
      warned = false;
      o.logger.info({ dir: o.dir, used_percent: Math.round(fraction * 100) }, 'cluster events: the spool\'s disk is under 80 % again');
    }
  };
  const timer = setInterval(() => void check(), o.everyMs ?? 60_000);
  timer.unref();
  return { stop: () => clearInterval(timer), check };
}

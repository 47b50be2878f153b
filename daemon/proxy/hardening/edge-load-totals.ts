import type { EdgeLoad } from '../../../shared/schemas/admin.js';
import type { ShedderStats } from './load-shedder.js';

// The edge's load as `daemon status` shows it, summed over the edge processes.
// With --workers N each worker sends its shedder's counts (cumulative since that worker started) to
// the primary every second; the primary keeps the last report of each live worker. When a worker
// exits, its last counts move to `retired`, so the sums never go backwards when a worker is replaced
// (its replacement starts again from 0 under a new cluster id). What a worker that was killed
// counted after its last report is lost: at most a second of counts.

export function edgeLoadOf(stats: ShedderStats): EdgeLoad {
  return {
    in_flight: stats.inFlight,
    admitted: stats.admitted,
    shed_in_flight: stats.shedInFlight,
    shed_loop_delay: stats.shedLoopDelay,
    worst_stall_ms: Math.round(stats.worstStallMs),
  };
}

export class EdgeLoadTotals {
  private readonly live = new Map<number, ShedderStats>();
  /** Cluster ids of exited workers: a report still queued behind the exit must not revive one. */
  private readonly exited = new Set<number>();
  private readonly retired = { admitted: 0, shedInFlight: 0, shedLoopDelay: 0, worstStallMs: 0 };

  /** A worker's latest cumulative counts; replaces its previous report. */
  report(workerId: number, stats: ShedderStats): void {
    if (this.exited.has(workerId)) return;
    this.live.set(workerId, stats);
  }

  /** The worker is gone: its last counts stay in the sums, its in-flight requests do not. */
  retire(workerId: number): void {
    this.exited.add(workerId);
    const last = this.live.get(workerId);
    if (!last) return;
    this.live.delete(workerId);
    this.retired.admitted += last.admitted;
    this.retired.shedInFlight += last.shedInFlight;
    this.retired.shedLoopDelay += last.shedLoopDelay;
    this.retired.worstStallMs = Math.max(this.retired.worstStallMs, last.worstStallMs);
  }

  total(): EdgeLoad {
    const sum: ShedderStats = { inFlight: 0, ...this.retired };
    for (const s of this.live.values()) {
      sum.inFlight += s.inFlight;
      sum.admitted += s.admitted;
      sum.shedInFlight += s.shedInFlight;
      sum.shedLoopDelay += s.shedLoopDelay;
      sum.worstStallMs = Math.max(sum.worstStallMs, s.worstStallMs);
    }
    return edgeLoadOf(sum);
  }
}

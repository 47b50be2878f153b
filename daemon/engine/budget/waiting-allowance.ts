// A wall-clock budget also runs out while the process waits for a core (a busy host, other
// tenants) or for a garbage collection helper: on the shared 2-core box, benign requests that
// cost 0.2-1 ms of CPU ran out of 40 ms during load bursts. Telling waiting from working needs
// CPU time, and Node 20's only reading, process.cpuUsage() (the whole process), costs ~0.7-1.9 us.
//
// So a phase takes one CPU reading when it starts (a mark), and reads again only when its deadline
// passes or when it ends late: if less than half of the wall time since the mark was CPU time, the
// time the process waited is granted (a watchdog-stopped exec runs again; a phase watchdog cannot,
// see time-budget.ts), and a phase that ended late is charged its work, not its waiting, so the
// next phase is not refused for a stall it did not cause. Until 2026-11-26 the mark was taken
// lazily, by the first clock read past a quarter of the allowance, to save that reading; a stall
// before it (a benign GET is ~6 reads) was charged in full and refused the request (500s at load
// 8-10 on this box). One reading per phase is ~0.2% of a request's CPU at the edge.
//
// Bounds: a running phase never gets beyond MAX_WALL_FACTOR x its allowance of wall time. CPU time
// of other threads (GC, compiler) counts as working: the error is towards stopping, never towards
// running on.
import { performance } from 'node:perf_hooks';

/** A phase never runs longer than this many times its allowance, however much of it was waiting. */
export const MAX_WALL_FACTOR = 4;
/** A phase charged at least this much wall time is looked at once more when it ends (below it,
 *  the reading would cost more than any stall it could find). */
export const SETTLE_FROM_MS = 2;

function cpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

/** Where a phase's clock started: wall and process CPU, read together. */
export interface ClockMark {
  wall: number;
  cpu: number;
}

/** Reads the wall clock and the process CPU clock now. */
export function markNow(): ClockMark {
  return { wall: performance.now(), cpu: cpuMs() };
}

export class WaitingAllowance {
  /** Wall ms granted to the current phase for waiting (not counted as spent). */
  grantedMs = 0;
  private hardDeadline = Infinity;
  private markWall = 0;
  private markCpu = 0;

  /** A phase starts: `mark` is where its clock started, `allowanceMs` what it may spend. */
  begin(mark: ClockMark, allowanceMs: number): void {
    this.grantedMs = 0;
    this.hardDeadline = mark.wall + allowanceMs * MAX_WALL_FACTOR;
    this.markWall = mark.wall;
    this.markCpu = mark.cpu;
  }

  /** The deadline passed at `now`: the wall ms to add to it (waiting since the mark), or 0 to stop. */
  extension(now: number, deadline: number): number {
    const room = this.hardDeadline - deadline;
    if (room <= 0) return 0;
    const more = Math.min(this.waitedSinceMark(now), room);
    this.grantedMs += more;
    return more;
  }

  /** The phase ended at `now` having been charged `chargedMs`: grants the waiting since the mark
   *  when that charge is large enough to be worth a reading (no cap: the phase is over). */
  settle(now: number, chargedMs: number): void {
    if (chargedMs >= SETTLE_FROM_MS) this.grantedMs += this.waitedSinceMark(now);
  }

  /** Wall ms since the mark that were not CPU time, if they were at least half of it (else 0:
   *  mostly working, the work really is this slow); moves the mark to `now`. */
  private waitedSinceMark(now: number): number {
    const wall = now - this.markWall;
    const cpu = cpuMs();
    const waited = wall - (cpu - this.markCpu);
    this.markWall = now;
    this.markCpu = cpu;
    return waited >= wall / 2 && waited > 0 ? waited : 0;
  }
}

// A wall-clock budget also runs out while the process waits for a core (a busy host, other
// tenants) or for a garbage collection helper: on the shared 2-core box, benign requests that
// cost 0.2-1 ms of CPU ran out of 40 ms during load bursts. Telling waiting from working needs
// CPU time, and Node 20's only reading, process.cpuUsage() (the whole process, a getrusage
// syscall), costs ~0.7 us idle and ~2.4 us in a busy edge worker.
//
// So a phase compares wall and CPU time since a baseline: a (wall, CPU) reading taken between
// phases, at most BASELINE_MAX_AGE_MS before the phase starts (refreshed by a phase start that
// finds it older: at most ~200 readings a second, whatever the request rate). CPU is read again
// only when the deadline passes or a phase ends late: if less than half of the wall time since the
// baseline was CPU time, the time the process waited is granted (a watchdog-stopped exec runs again;
// a phase watchdog cannot, see time-budget.ts), and a phase that ended late is charged its work,
// not its waiting, so the next phase is not refused for a stall it did not cause. Only wall time
// inside the phase can be granted, and all CPU time since the baseline counts as the phase's work
// (other requests' work between the baseline and the phase, under BASELINE_MAX_AGE_MS, included):
// the error is towards stopping.
//
// History (2026-11-26): the baseline used to be taken lazily, by the first clock read past a quarter
// of the allowance; a stall before it (a benign GET makes ~6 reads) was charged in full and refused
// the request (500s at load 8-10 on this box). A reading at every phase start fixed that but cost
// 12 us a proxied GET (7% of the edge's CPU, 5 phases); the shared baseline costs ~0.
//
// Bounds: a running phase never gets beyond MAX_WALL_FACTOR x its allowance of wall time. CPU time
// of other threads (GC, compiler) counts as working: the error is towards stopping, never towards
// running on.

/** A phase never runs longer than this many times its allowance, however much of it was waiting. */
export const MAX_WALL_FACTOR = 4;
/** A phase charged at least this much wall time is looked at once more when it ends (below it,
 *  the reading would cost more than any stall it could find). */
export const SETTLE_FROM_MS = 2;
/** The oldest baseline a phase starts from. */
export const BASELINE_MAX_AGE_MS = 5;

function cpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

/** The process's last (wall, CPU) reading taken outside a phase; shared by every transaction. */
let baselineWall = -Infinity;
let baselineCpu = 0;

/** Makes sure the shared baseline is at most BASELINE_MAX_AGE_MS older than `now` (a wall time
 *  not inside a running phase: a phase start, or a clock started for one). */
export function refreshBaseline(now: number): void {
  if (now - baselineWall > BASELINE_MAX_AGE_MS) {
    baselineWall = now;
    baselineCpu = cpuMs();
  }
}

export class WaitingAllowance {
  /** Wall ms granted to the current phase for waiting (not counted as spent). */
  grantedMs = 0;
  private hardDeadline = Infinity;
  private markWall = 0;
  private markCpu = 0;
  private phaseStart = 0;

  /** A phase starts; its clock started at `started` (a time refreshBaseline saw), `allowanceMs` is what it may spend. */
  begin(started: number, allowanceMs: number): void {
    refreshBaseline(started);
    this.grantedMs = 0;
    this.hardDeadline = started + allowanceMs * MAX_WALL_FACTOR;
    this.markWall = baselineWall;
    this.markCpu = baselineCpu;
    this.phaseStart = started;
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
    if (chargedMs >= SETTLE_FROM_MS) this.grantedMs += Math.min(this.waitedSinceMark(now), chargedMs);
  }

  /** Wall ms of the phase since the mark that were not CPU time (counting all CPU time since the
   *  mark, which may be older than the phase), if they were at least half of it (else 0: mostly
   *  working, the work really is this slow); moves the mark to `now`. */
  private waitedSinceMark(now: number): number {
    const wall = now - Math.max(this.markWall, this.phaseStart);
    const cpu = cpuMs();
    const waited = wall - (cpu - this.markCpu);
    this.markWall = now;
    this.markCpu = cpu;
    return waited >= wall / 2 && waited > 0 ? waited : 0;
  }
}

// A wall-clock budget also runs out while the process waits for a core (a busy host, other
// tenants) or for a garbage collection helper: on the shared 2-core box, benign requests that
// cost 0.2-1 ms of CPU ran out of 40 ms during load bursts (up to 3.6% of a PL4 form benchmark).
// Telling waiting from working needs CPU time, and Node 20's only reading, process.cpuUsage()
// (the whole process), costs ~1.9 us: too dear per request. So it is read only for a phase that
// has already run for a quarter of its allowance (a mark), and again when the deadline passes:
// if less than half of the wall time since the mark was CPU time, the time the process waited is
// granted once more (a watchdog-stopped exec runs again; a phase watchdog cannot, see time-budget.ts).
// Bounds: never beyond MAX_WALL_FACTOR x the allowance of wall time; without a mark yet, one short
// grace to take one. CPU time of other threads (GC, compiler) counts as working: the error is
// towards stopping, never towards running on.
import { performance } from 'node:perf_hooks';

/** A phase never runs longer than this many times its allowance, however much of it was waiting. */
export const MAX_WALL_FACTOR = 4;
/** Wall ms granted, once a phase, to take a first CPU reading when the deadline passes without one. */
export const GRACE_MS = 10;

function cpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

export class WaitingAllowance {
  /** Wall ms granted to the current phase for waiting (not counted as spent). */
  grantedMs = 0;
  private markAfter = Infinity;
  private hardDeadline = Infinity;
  private markWall = -1;
  private markCpu = 0;
  private graceUsed = false;

  begin(now: number, allowanceMs: number): void {
    this.grantedMs = 0;
    this.markAfter = now + allowanceMs / 4;
    this.hardDeadline = now + allowanceMs * MAX_WALL_FACTOR;
    this.markWall = -1;
    this.graceUsed = false;
  }

  /** A clock read before the deadline: takes the mark once a quarter of the allowance has passed. */
  observe(now: number): void {
    if (this.markWall < 0 && now >= this.markAfter) this.mark(now);
  }

  /** The deadline passed at `now`: the wall ms to add to it (waiting since the mark), or 0 to stop. */
  extension(now: number, deadline: number): number {
    const room = this.hardDeadline - deadline;
    if (room <= 0) return 0;
    if (this.markWall < 0) {
      if (this.graceUsed) return 0;
      this.graceUsed = true;
      this.mark(now);
      return Math.min(GRACE_MS, room);
    }
    const wall = now - this.markWall;
    const waited = wall - (cpuMs() - this.markCpu);
    this.mark(now);
    if (waited < wall / 2) return 0; // mostly working: the request really is this slow
    const more = Math.min(waited, room);
    this.grantedMs += more;
    return more;
  }

  private mark(now: number): void {
    this.markWall = now;
    this.markCpu = cpuMs();
  }
}

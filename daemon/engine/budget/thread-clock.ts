// The clocks the time budget reads (time-budget.ts). The budget is the CPU time of the thread that
// runs the rules, so that a request's verdict is a property of the request, never of the machine's
// load (DESIGN.md house rule 12): a worker that waits for a core while two busy loops hold both
// cores spends wall time, not CPU time. Wall time is read often (performance.now(), ~0.09 us) and
// bounds the thread's CPU time from above, so CPU time is read only when wall time says it might
// be spent.
//
// Node 20 has no per-thread CPU reading (process.threadCpuUsage came in 23.9), and
// process.cpuUsage() adds every thread of the process (GC helpers, the compiler) and costs ~2.3 us.
// Linux keeps the thread's scheduler figures in /proc/thread-self/schedstat: nanoseconds on a CPU,
// then nanoseconds runnable but waiting for one (the run queue). The first is brought up to date
// only at scheduler events (a thread spinning 0.7 ms read 0 there), but getrusage(RUSAGE_SELF),
// which process.cpuUsage() calls, updates the calling thread's figure first (the kernel's
// thread_group_cputime), so the two together read this thread's own CPU time to the microsecond
// (~6 us). Not wall time less the run-queue wait: that counts blocked time as work, and under load
// the main thread blocks on GC helper threads that are themselves waiting for a core (benign
// requests were refused that way in bench/budget at load 16). Where the file is missing (another
// OS, a kernel without sched_info), process.cpuUsage() alone stands in: the error is towards
// stopping (other threads' work counts).
import { closeSync, openSync, readSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

export interface BudgetClock {
  /** Monotonic wall time in ms: cheap, read often. */
  wallMs(): number;
  /** This thread's CPU time in ms, exact now: two system calls, read only when it may matter. */
  cpuMs(): number;
  /** A CPU reading taken at most RECENT_CPU_MS before `wallNow` (a wall time read just before):
   *  shared by every transaction, so its cost is bounded per second, not per request. */
  recentCpuMs(wallNow: number): number;
  /** How many wall ms the thread recently needed for one ms of CPU (1 on an idle box, 2 when it
   *  got half a core), for sizing a watchdog that stops work by wall time. */
  recentStretch(): number;
}

/** The oldest reading recentCpuMs hands out: what other work may be charged to a phase at most
 *  (5 ms of a 40 ms budget). Each reading costs ~19 µs of the edge worker's CPU under load (the
 *  getrusage call sums every thread of the process): at 2 ms the readings were ~6 µs per benign GET,
 *  4 % of the edge's CPU (bench/proxy/ab-edge.sh against 7bf84ad); at 5 ms at most 200 a second. */
export const RECENT_CPU_MS = 5;
/** Stretch figures are clamped to this (an estimate from one short window can be wild). */
export const MAX_STRETCH = 4;

/** Reads /proc/thread-self/schedstat of the thread that opened it: [cpu ns, run-queue wait ns]. */
class Schedstat {
  private readonly buffer = Buffer.alloc(96);
  private constructor(private readonly fd: number) {}

  static open(): Schedstat | undefined {
    let fd: number | undefined;
    try {
      fd = openSync('/proc/thread-self/schedstat', 'r');
      const stat = new Schedstat(fd);
      stat.read();
      return stat;
    } catch {
      if (fd !== undefined) closeSync(fd);
      return undefined;
    }
  }

  /** Fills `into` with [cpu ms, wait ms]. */
  read(into: [number, number] = [0, 0]): [number, number] {
    const n = readSync(this.fd, this.buffer, 0, this.buffer.length, 0);
    let field = 0;
    let value = 0;
    for (let i = 0; i < n && field < 2; i++) {
      const c = this.buffer[i];
      if (c >= 48 && c <= 57) value = value * 10 + (c - 48);
      else {
        into[field++] = value / 1e6;
        value = 0;
      }
    }
    if (field < 2) throw new Error('unexpected /proc/thread-self/schedstat');
    return into;
  }
}

/** The real clock of the thread that created it (the engine runs on a worker's main thread). */
export class ThreadClock implements BudgetClock {
  private readonly schedstat = Schedstat.open();
  private readonly pair: [number, number] = [0, 0];
  private recentWall = -Infinity;
  private recentCpu = 0;
  /** The run and wait figures at the start of the window the stretch is measured over. */
  private recentRan = 0;
  private recentWait = 0;
  private stretch: number;

  constructor() {
    // Without run-queue figures a guess: a worker on a box as busy as the tests' (two busy loops
    // on two cores) gets about two thirds of a core.
    this.stretch = this.schedstat === undefined ? 2 : 1;
  }

  /** Whether CPU time is the thread's own (else the whole process's). */
  get perThread(): boolean {
    return this.schedstat !== undefined;
  }

  wallMs(): number {
    return performance.now();
  }

  cpuMs(): number {
    const usage = process.cpuUsage(); // also brings this thread's schedstat figure up to date
    if (this.schedstat === undefined) return (usage.user + usage.system) / 1000;
    return this.schedstat.read(this.pair)[0];
  }

  recentCpuMs(wallNow: number): number {
    if (wallNow - this.recentWall > RECENT_CPU_MS) this.refresh(wallNow);
    return this.recentCpu;
  }

  recentStretch(): number {
    return this.stretch;
  }

  private refresh(wallNow: number): void {
    if (this.schedstat === undefined) {
      this.recentCpu = this.cpuMs();
    } else {
      process.cpuUsage(); // brings the thread's run time up to date
      const [ran, waited] = this.schedstat.read(this.pair);
      // The share of a core the thread got: only a window with enough run time says anything.
      const worked = ran - this.recentRan;
      if (worked >= 1 && this.recentWall > -Infinity) {
        this.stretch = Math.min(MAX_STRETCH, Math.max(1, (worked + waited - this.recentWait) / worked));
        this.recentRan = ran;
        this.recentWait = waited;
      } else if (this.recentWall === -Infinity) {
        this.recentRan = ran;
        this.recentWait = waited;
      }
      this.recentCpu = ran;
    }
    this.recentWall = wallNow;
  }
}

let shared: ThreadClock | undefined;

/** The clock of the thread that first asks (the engine's thread): one per process, one file open. */
export function threadClock(): ThreadClock {
  shared ??= new ThreadClock();
  return shared;
}

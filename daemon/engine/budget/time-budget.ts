// The per-transaction time budget: no request may hold the event loop for long, whatever its
// content. V8's linear-time regex fallback (../regex-safety.ts) removed the exponential
// cases, but its linear engine costs up to ~45 us a byte on some CRS regexes, so one exec on a long
// value, or many medium ones, can still take seconds. ModSecurity's analogue is SecPcreMatchLimit (a
// PCRE match that gives up sets MSC_PCRE_LIMITS_EXCEEDED); here the whole transaction has one budget.
//
// The budget is CPU time of the engine's thread (thread-clock.ts), not wall time: whether a request
// is refused must not depend on how busy the machine is (DESIGN.md house rule 12: benign
// requests got 500s on a loaded box under the old wall-time budget). Wall time bounds the thread's
// CPU time from above, so the budget keeps a wall deadline (start + CPU left) that is cheap to test,
// and reads CPU time only when the wall deadline has passed: CPU left, the deadline moves to now +
// what is left; none left, the budget is spent.
//
// Three mechanisms, cheapest first (figures: ../README.md, "Time budget"):
// 1. Cheap checks: every exec adds its subject length squared to a counter, and the wall clock is
//    read when the counter passes CHECK_EVERY_SQUARED_BYTES (a GET at PL1: 6 reads for ~250 execs).
// 2. A watchdog per exec: one exec cannot be stopped by a check, so a subject long enough that one
//    exec could end far past the deadline (guardFrom, from the CPU left) runs under vm's wall-time
//    watchdog. Stopped while the thread was waiting for a core rather than working, the exec runs
//    again with a longer watchdog (an exec has no side effects), and the stopped attempt's CPU is
//    not charged: the request is charged the work of the exec that completes, as on an idle box.
// 3. A watchdog per phase: when the phase's inputs hold such a long value (a 2 KiB form body), the
//    whole phase runs under one watchdog rather than each of the dozens of execs on that value;
//    checks inside it still stop the phase by CPU time. Its wall limit is the CPU left stretched by
//    how much wall time the thread recently needed per ms of CPU (at most MAX_STRETCH). A phase
//    cannot run again, but a transaction can: stopped while CPU time was left, the error says so
//    (stoppedWaiting) and the caller runs the whole request again with a longer watchdog
//    (stretchAtLeast; rule-sets/engine-inspector.ts).
// The request body's parse runs on phase 2's clock (startClock): it holds the loop too.
// Exceeding the budget throws EngineBudgetExceeded out of the phase; the caller decides (the edge:
// always refused, never forwarded uninspected). A transaction that threw is finished.
import { Interrupted, isInterruptibleRunning, runInterruptible } from './interruptible.js';
import { MAX_STRETCH, threadClock, type BudgetClock } from './thread-clock.js';

/** When the clock is read: after execs whose squared subject lengths add up to this (one read costs
 *  ~90 ns). The worst exec cost grows about with the square of the length up to ~0.5 KiB, then
 *  linearly at up to ~45 us a byte: the worst of every pathological shape for the fuzz's 12 worst
 *  rules, warm (2026-11-25): 32 B 0.01 ms, 64 B 0.08, 128 B 0.37, 200 B 1.11, 256 B 2.1, 512 B 11.8
 *  (941160, 941170). So between two reads at most ~1.1 ms of regex work passes, whether it is one
 *  exec on 200 bytes or a hundred on 20; any exec on 200 bytes or more is followed by a read. */
export const CHECK_EVERY_SQUARED_BYTES = 200 * 200;
/** The worst cost per subject byte measured for a CRS 3.3.4 regex in V8's linear engine (941160,
 *  942330, 941320 on 2-4 KiB runs; bench/rx-fuzz). */
export const WORST_US_PER_BYTE = 45;
/** How far past its deadline one unguarded exec may end: the issue's 50 ms less the default budget. */
export const OVERRUN_MS = 10;
/** A phase shorter than this in wall time is charged its wall time (an upper bound of its CPU
 *  time) rather than paying for a CPU reading. */
export const SETTLE_FROM_MS = 0.5;
/** How often one exec stopped by waiting runs again before the budget counts it as spent. */
export const MAX_EXEC_RETRIES = 4;

/** Thrown out of a phase that ran past the transaction's budget. */
export class EngineBudgetExceeded extends Error {
  readonly code = 'ENGINE_BUDGET_EXCEEDED';
  constructor(
    readonly budgetMs: number,
    /** CPU ms charged to the transaction when it was stopped. */
    readonly elapsedMs: number,
    readonly phase: number,
    /** The rule (chain starter) being evaluated when the budget ran out, if any. */
    readonly ruleId: number | undefined,
    /** Stopped by a phase watchdog (wall time) while CPU time was left: the thread was waiting for
     *  a core, and the whole transaction may run again with a longer watchdog (stretchAtLeast). */
    readonly stoppedWaiting = false,
    /** Wall ms per CPU ms the stopped phase got: what a rerun's watchdog should allow at least. */
    readonly wallPerCpu = 1,
  ) {
    super(`engine time budget of ${budgetMs} ms exceeded (${elapsedMs.toFixed(1)} ms) in phase ${phase}${ruleId === undefined ? '' : ` at rule ${ruleId}`}`);
    this.name = 'EngineBudgetExceeded';
  }
}

/** When a phase's clock started: wall time and a CPU reading taken at or shortly before it. */
export interface PhaseStart {
  wallMs: number;
  cpuMs: number;
}

/** Internal signal from a check to the phase runner: one object, no stack trace to build. */
const SPENT: unique symbol = Symbol('budget spent');

/** The subject length from which one exec, at the worst measured rate, could end more than
 *  OVERRUN_MS past a deadline `remainingMs` away. */
export function guardLength(remainingMs: number): number {
  return Math.ceil(((Math.max(0, remainingMs) + OVERRUN_MS) * 1000) / WORST_US_PER_BYTE);
}

export class TimeBudget {
  /** Subjects at least this long run under a watchdog; Infinity outside a phase or in a guarded one. */
  guardFrom = Infinity;
  /** Wall time by which the phase's CPU time cannot yet have run out. */
  private deadline = Infinity;
  private unchecked = 0;
  /** CPU ms charged to the finished phases. */
  private spentMs = 0;
  private allowanceMs = 0;
  private phaseCpuStart = 0;
  /** CPU ms of stopped exec attempts, which the request is not charged. */
  private refundedMs = 0;
  private phaseGuarded = false;

  constructor(
    readonly limitMs: number,
    private readonly clock: BudgetClock = threadClock(),
    /** The least wall ms a watchdog allows per ms of CPU left (a transaction run again after its
     *  phase watchdog stopped it while it waited passes more). */
    private readonly stretchAtLeast = 1,
  ) {}

  private stretch(): number {
    return Math.max(this.stretchAtLeast, this.clock.recentStretch());
  }

  /** `regex.exec(input)` within the budget (the @rx matcher's only way to run a regex). */
  exec(regex: RegExp, input: string): RegExpExecArray | null {
    const length = input.length;
    const match = length < this.guardFrom ? regex.exec(input) : this.guardedExec(regex, input);
    this.unchecked += length * length;
    if (this.unchecked >= CHECK_EVERY_SQUARED_BYTES) this.check();
    return match;
  }

  /** `regex.test(input)` within the budget: exec's bookkeeping, without building a match array for
   *  a rule that does not capture. */
  test(regex: RegExp, input: string): boolean {
    const length = input.length;
    const hit = length < this.guardFrom ? regex.test(input) : this.guardedExec(regex, input) !== null;
    this.unchecked += length * length;
    if (this.unchecked >= CHECK_EVERY_SQUARED_BYTES) this.check();
    return hit;
  }

  /**
   * Runs one phase's rules (`evaluate`) within what is left of the budget; `longestInput` is the
   * longest value the phase may inspect (longest-input.ts), `currentRuleId` names the rule for the
   * error; `started` (from startClock) when work before the phase belongs to its time.
   */
  runPhase(phase: number, longestInput: number, evaluate: () => void, currentRuleId: () => number | undefined, started?: PhaseStart): void {
    const wallStart = started?.wallMs ?? this.clock.wallMs();
    const allowance = this.limitMs - this.spentMs;
    if (allowance <= 0) throw new EngineBudgetExceeded(this.limitMs, this.spentMs, phase, undefined);
    this.allowanceMs = allowance;
    this.phaseCpuStart = started?.cpuMs ?? this.clock.recentCpuMs(wallStart);
    this.refundedMs = 0;
    this.deadline = wallStart + allowance;
    this.unchecked = 0;
    const guardFrom = guardLength(allowance);
    this.phaseGuarded = longestInput >= guardFrom && !isInterruptibleRunning();
    this.guardFrom = this.phaseGuarded ? Infinity : guardFrom;
    let stopped = false;
    try {
      if (this.phaseGuarded) runInterruptible(evaluate, allowance * this.stretch() + OVERRUN_MS);
      else evaluate();
    } catch (err) {
      if (err === SPENT || err instanceof Interrupted) {
        stopped = true;
        const used = this.phaseCpu();
        const wallPerCpu = (this.clock.wallMs() - wallStart) / Math.max(used, 0.05);
        throw new EngineBudgetExceeded(this.limitMs, this.spentMs + used, phase, currentRuleId(), err !== SPENT && used < allowance, wallPerCpu);
      }
      throw err;
    } finally {
      if (!stopped) {
        const wall = this.clock.wallMs() - wallStart;
        this.spentMs += wall < SETTLE_FROM_MS ? wall : this.phaseCpu();
      } else this.spentMs = this.limitMs;
      this.phaseGuarded = false;
      this.deadline = Infinity;
      this.guardFrom = Infinity;
    }
  }

  /** A phase clock started now, for runPhase: the work until then (the request body's parse, which
   *  holds the loop too) is that phase's time, charged like the rest of it. */
  startClock(): PhaseStart {
    const wallMs = this.clock.wallMs();
    return { wallMs, cpuMs: this.clock.recentCpuMs(wallMs) };
  }

  /** A checkpoint for work done on a clock from startClock before its phase runs (the body parse):
   *  throws EngineBudgetExceeded once that work alone has used what is left of the budget. Reads
   *  the wall clock; the thread's CPU time only once the wall time says it may be spent. */
  checkSince(started: PhaseStart, phase: number): void {
    const left = this.limitMs - this.spentMs;
    if (this.clock.wallMs() - started.wallMs < left) return;
    const used = this.clock.cpuMs() - started.cpuMs;
    if (used < left) return;
    this.spentMs = this.limitMs;
    throw new EngineBudgetExceeded(this.limitMs, this.limitMs - left + used, phase, undefined);
  }

  /** CPU ms the running phase has used, less stopped exec attempts. */
  private phaseCpu(): number {
    return Math.max(0, this.clock.cpuMs() - this.phaseCpuStart - this.refundedMs);
  }

  private check(): void {
    this.unchecked = 0;
    const now = this.clock.wallMs();
    if (now >= this.deadline) this.moveDeadline(now);
    if (!this.phaseGuarded) this.guardFrom = guardLength(this.deadline - now);
  }

  /** The wall deadline passed at `now`: it moves to now + the CPU time left, or the budget is spent. */
  private moveDeadline(now: number): void {
    const left = this.allowanceMs - this.phaseCpu();
    if (left <= 0) throw SPENT;
    this.deadline = now + left;
  }

  private guardedExec(regex: RegExp, input: string): RegExpExecArray | null {
    if (isInterruptibleRunning()) return regex.exec(input);
    let stretch = this.stretch();
    for (let attempt = 0; ; attempt++) {
      const cpuBefore = this.clock.cpuMs();
      const wallBefore = this.clock.wallMs();
      const left = this.allowanceMs - Math.max(0, cpuBefore - this.phaseCpuStart - this.refundedMs);
      if (left <= 0) throw SPENT;
      try {
        return runInterruptible(() => regex.exec(input), left * stretch);
      } catch (err) {
        if (!(err instanceof Interrupted)) throw err;
        const worked = this.clock.cpuMs() - cpuBefore;
        const waited = this.clock.wallMs() - wallBefore - worked;
        // It worked through all the CPU it had, or it keeps being stopped: the budget is spent.
        if (worked >= left || waited <= 0 || attempt >= MAX_EXEC_RETRIES) throw SPENT;
        // Stopped while waiting for a core: the exec runs again from the start, with a watchdog
        // stretched by the share of a core it got; what the stopped attempt did is not the request's.
        // At least twice as long each time, so that a run of stalls cannot stop it for ever.
        this.refundedMs += worked;
        stretch = Math.max(stretch * 2, ((worked + waited) / Math.max(worked, 0.05)) * 1.25);
      }
    }
  }
}

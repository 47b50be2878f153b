// The per-transaction time budget: no request may hold the event loop for long, whatever its
// content (issue 10). Holding the loop is wall time, so the budget is wall time (performance.now()).
// V8's linear-time regex fallback (../regex-safety.ts) removed the exponential cases, but its
// linear engine costs up to ~45 us a byte on some CRS regexes, so one exec on a long value, or many
// medium ones, can still take seconds. ModSecurity's analogue is SecPcreMatchLimit (a PCRE match
// that gives up sets MSC_PCRE_LIMITS_EXCEEDED); here the whole transaction has one budget instead.
//
// Three mechanisms, cheapest first (figures and the decision: ../README.md, "Time budget"):
// 1. Cheap checks: every exec adds its subject length squared to a counter, and the clock is read
//    when the counter passes CHECK_EVERY_SQUARED_BYTES (a GET at PL1: 6 reads for ~250 execs).
// 2. A watchdog per exec: one exec cannot be stopped by a check, so a subject long enough that one
//    exec could end far past the deadline (guardFrom, from the time left) runs interruptible.
// 3. A watchdog per phase: when the phase's inputs hold such a long value (a 2 KiB form body), the
//    whole phase runs interruptible once, rather than each of the dozens of execs on that value.
// Past the deadline, wall time the process spent waiting for a core is granted again, up to 4x the
// allowance (waiting-allowance.ts); a phase watchdog cannot grant it (the phase is gone by then). A
// phase that ends late is charged its work, not its waiting. The request body's parse runs on phase
// 2's clock (startClock): it holds the loop too.
// Exceeding the budget throws EngineBudgetExceeded out of the phase; the caller decides (the edge:
// the site's waf.onError, fail-closed by default). A transaction that threw is finished.
import { performance } from 'node:perf_hooks';
import { Interrupted, isInterruptibleRunning, runInterruptible } from './interruptible.js';
import { refreshBaseline, WaitingAllowance } from './waiting-allowance.js';

/** When the clock is read: after execs whose squared subject lengths add up to this (one read costs
 *  ~55 ns). The worst exec cost grows about with the square of the length up to ~0.5 KiB, then
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

/** Thrown out of a phase that ran past the transaction's budget. */
export class EngineBudgetExceeded extends Error {
  readonly code = 'ENGINE_BUDGET_EXCEEDED';
  constructor(
    readonly budgetMs: number,
    readonly elapsedMs: number,
    readonly phase: number,
    /** The rule (chain starter) being evaluated when the budget ran out, if any. */
    readonly ruleId: number | undefined,
  ) {
    super(`engine time budget of ${budgetMs} ms exceeded (${elapsedMs.toFixed(1)} ms) in phase ${phase}${ruleId === undefined ? '' : ` at rule ${ruleId}`}`);
    this.name = 'EngineBudgetExceeded';
  }
}

/** Internal signal from a cheap check to the phase runner: one object, no stack trace to build. */
const SPENT: unique symbol = Symbol('budget spent');

/** The subject length from which one exec, at the worst measured rate, could end more than
 *  OVERRUN_MS past a deadline `remainingMs` away. */
export function guardLength(remainingMs: number): number {
  return Math.ceil(((Math.max(0, remainingMs) + OVERRUN_MS) * 1000) / WORST_US_PER_BYTE);
}

export class TimeBudget {
  /** Subjects at least this long run under a watchdog; Infinity outside a phase or in a guarded one. */
  guardFrom = Infinity;
  private deadline = Infinity;
  private unchecked = 0;
  private spentMs = 0;
  private phaseGuarded = false;
  private readonly waiting = new WaitingAllowance();

  constructor(readonly limitMs: number) {}

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
   * longest value the phase may inspect (longest-input.ts), `currentRuleId` names the rule for the error;
   * `clockStarted` (from startClock) when work before the phase belongs to its time.
   */
  runPhase(phase: number, longestInput: number, evaluate: () => void, currentRuleId: () => number | undefined, clockStarted?: number): void {
    const started = clockStarted ?? performance.now();
    const allowance = this.limitMs - this.spentMs;
    if (allowance <= 0) throw new EngineBudgetExceeded(this.limitMs, this.spentMs, phase, undefined);
    this.deadline = started + allowance;
    this.waiting.begin(started, allowance);
    this.unchecked = 0;
    const guardFrom = guardLength(allowance);
    this.phaseGuarded = longestInput >= guardFrom && !isInterruptibleRunning();
    this.guardFrom = this.phaseGuarded ? Infinity : guardFrom;
    try {
      if (this.phaseGuarded) runInterruptible(evaluate, allowance);
      else evaluate();
    } catch (err) {
      if (err === SPENT || err instanceof Interrupted) {
        throw new EngineBudgetExceeded(this.limitMs, this.spentMs + performance.now() - started - this.waiting.grantedMs, phase, currentRuleId());
      }
      throw err;
    } finally {
      const ended = performance.now();
      this.waiting.settle(ended, ended - started - this.waiting.grantedMs);
      this.spentMs += ended - started - this.waiting.grantedMs;
      this.phaseGuarded = false;
      this.deadline = Infinity;
      this.guardFrom = Infinity;
    }
  }

  /** A phase clock started now, for runPhase: the work until then (the request body's parse, which
   *  holds the loop too) is that phase's time, charged and granted like the rest of it. */
  startClock(): number {
    const now = performance.now();
    refreshBaseline(now);
    return now;
  }

  private check(): void {
    this.unchecked = 0;
    const now = performance.now();
    if (now > this.deadline) this.extendOrStop(now);
    if (!this.phaseGuarded) this.guardFrom = guardLength(this.deadline - now);
  }

  /** Past the deadline: more time if the process spent it waiting for a core, else the budget is spent. */
  private extendOrStop(now: number): void {
    const more = this.waiting.extension(now, this.deadline);
    // Even with its waiting granted the phase is past the deadline: its work alone spent it.
    if (more <= 0 || this.deadline + more <= now) throw SPENT;
    this.deadline += more;
  }

  private guardedExec(regex: RegExp, input: string): RegExpExecArray | null {
    for (;;) {
      const remaining = this.deadline - performance.now();
      if (remaining <= 0) {
        this.extendOrStop(performance.now());
        continue;
      }
      if (isInterruptibleRunning()) return regex.exec(input);
      try {
        return runInterruptible(() => regex.exec(input), remaining);
      } catch (err) {
        // An exec has no side effects: if the time went to waiting, it runs again with what is granted.
        if (!(err instanceof Interrupted)) throw err;
        this.extendOrStop(performance.now());
      }
    }
  }
}

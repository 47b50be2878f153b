// The time budget's mechanisms, each on its own (../time-budget.test.ts runs CRS through it): the
// cheap checks, a watchdog around one long exec, a watchdog around a whole phase, and the CPU-time
// accounting that makes the verdict independent of the machine's load. The accounting runs on a
// FakeClock, where time passes only when the test says so; the watchdogs stop real work that would
// run on for ever (or for seconds), so only the budget can end it. No assertion is on a duration.
import { describe, expect, it } from 'vitest';
import { CHECK_EVERY_SQUARED_BYTES, EngineBudgetExceeded, guardLength, TimeBudget } from '../../../../daemon/engine/budget/time-budget.js';
import { Interrupted, runInterruptible } from '../../../../daemon/engine/budget/interruptible.js';
import { enableRegexBacktrackFallback } from '../../../../daemon/engine/regex-safety.js';
import { compilePcre } from '../../../../daemon/engine/regex/index.js';
import { crsRxRules } from '../../../../bench/rx-fuzz/crs-rx-rules.js';
import { threadClock } from '../../../../daemon/engine/budget/thread-clock.js';
import { FakeClock, ScaledCpuClock } from './clocks.js';

enableRegexBacktrackFallback();

function caught(run: () => void): unknown {
  try {
    run();
  } catch (err) {
    return err;
  }
  return undefined;
}

const short = 'a'.repeat(200); // 200 bytes: one exec completes a check

// CRS 941160 (PL1) on `<<` x n + `!`: V8's linear engine at ~45 us a byte (bench/rx-fuzz).
const slowRegex = compilePcre(crsRxRules().find((r) => r.ruleId === '941160')!.pattern).regex;
// 64 KiB: one exec takes seconds: far past any budget here.
const slowSubject = '<<'.repeat(32768) + '!';

describe('TimeBudget accounting (fake clock)', () => {
  it('cheap checks: work that adds up ends the phase with the rule being evaluated and the CPU charged', () => {
    const clock = new FakeClock();
    const budget = new TimeBudget(20, clock);
    let rounds = 0;
    const err = caught(() =>
      budget.runPhase(2, 10, () => {
        for (;; rounds++) {
          clock.work(1); // an expensive operator
          budget.exec(/x/, short);
        }
      }, () => 942100),
    );
    expect(err).toBeInstanceOf(EngineBudgetExceeded);
    const e = err as EngineBudgetExceeded;
    expect([e.code, e.phase, e.ruleId, e.budgetMs, e.elapsedMs, rounds]).toEqual(['ENGINE_BUDGET_EXCEEDED', 2, 942100, 20, 20, 19]);
    expect(e.message).toBe('engine time budget of 20 ms exceeded (20.0 ms) in phase 2 at rule 942100');
  });

  it.each(['exec', 'test'] as const)('%ss on short subjects read the clock once their squared lengths add up to CHECK_EVERY_SQUARED_BYTES', (run) => {
    const clock = new FakeClock();
    const budget = new TimeBudget(5, clock);
    let execs = 0;
    const err = caught(() =>
      budget.runPhase(1, 0, () => {
        clock.work(10); // the budget is already spent: only a check can notice it
        for (;;) {
          budget[run](/x/, 'abcd');
          execs++;
        }
      }, () => undefined),
    );
    expect(err).toBeInstanceOf(EngineBudgetExceeded);
    // 4 bytes count 16: only an exec that completes a sum reads the clock, so the first such exec throws.
    expect(execs).toBe(CHECK_EVERY_SQUARED_BYTES / 16 - 1);
  });

  it('waiting for a core is not work: a phase descheduled past its deadline completes, and so do the next ones', () => {
    const clock = new FakeClock();
    const budget = new TimeBudget(20, clock);
    let rounds = 0;
    expect(caught(() =>
      budget.runPhase(1, 0, () => {
        clock.work(5);
        clock.wait(400); // two busy loops held both cores
        for (; rounds < 5; rounds++) {
          clock.work(1);
          budget.exec(/x/, short); // a clock read after each: past the wall deadline, CPU is read
        }
      }, () => 1),
    )).toBeUndefined();
    expect(rounds).toBe(5);
    clock.wait(1000); // between phases: the edge waiting for the body
    const started = budget.startClock();
    clock.wait(300); // a stalled body parse
    clock.work(3);
    expect(caught(() => budget.runPhase(2, 0, () => { clock.work(1); budget.exec(/x/, short); }, () => 2, started))).toBeUndefined();
    // 5 + 5 + 3 + 1 = 14 ms of work so far: 6 are left, and 6 more ms of work spend them.
    expect(caught(() => budget.runPhase(3, 0, () => { clock.work(5); clock.wait(100); budget.exec(/x/, short); }, () => 3))).toBeUndefined();
    const err = caught(() => budget.runPhase(4, 0, () => { clock.work(1); clock.wait(100); budget.exec(/x/, short); }, () => 4));
    expect(err).toMatchObject({ phase: 4, ruleId: 4 });
  });

  it('the same work gets the same verdict however much waiting is mixed in', () => {
    // The verdict is a property of the request (DESIGN.md rule 12): the work of one request,
    // replayed with every amount of waiting between its steps, is refused exactly when the work is.
    const steps = [3, 7, 2, 9, 4, 6, 1, 8];
    const total = steps.reduce((a, b) => a + b, 0); // 40
    for (const limit of [39, 40, 41]) {
      const verdicts = [0, 1, 13, 250].map((waitMs) => {
        const clock = new FakeClock();
        const budget = new TimeBudget(limit, clock);
        return caught(() => budget.runPhase(2, 0, () => {
          for (const ms of steps) {
            clock.work(ms);
            clock.wait(waitMs);
            budget.exec(/x/, short);
          }
        }, () => 2)) instanceof EngineBudgetExceeded;
      });
      expect(verdicts, `limit ${limit}`).toEqual(new Array(4).fill(limit <= total)); // spent once the work reaches the limit
    }
  });

  it('the budget is shared by the phases: a later phase gets what is left, then nothing', () => {
    const clock = new FakeClock();
    const budget = new TimeBudget(15, clock);
    budget.runPhase(1, 0, () => clock.work(16), () => undefined); // no check ran: the phase completes
    const err = caught(() => budget.runPhase(2, 0, () => { throw new Error('not reached'); }, () => undefined));
    expect(err).toBeInstanceOf(EngineBudgetExceeded);
    expect(err).toMatchObject({ phase: 2, ruleId: undefined });
  });

  it('the body parse runs on phase 2\'s clock: its work counts against the budget', () => {
    const clock = new FakeClock();
    const budget = new TimeBudget(15, clock);
    budget.runPhase(1, 0, () => undefined, () => undefined);
    const started = budget.startClock();
    clock.work(16); // the parse
    const err = caught(() => budget.runPhase(2, 0, () => { budget.exec(/x/, short); }, () => 920100, started));
    expect(err).toBeInstanceOf(EngineBudgetExceeded);
    expect((err as EngineBudgetExceeded).ruleId).toBe(920100);
  });

  it('a short phase is charged its wall time without reading CPU time; a longer one its CPU time', () => {
    const clock = new FakeClock();
    const budget = new TimeBudget(10, clock);
    for (let i = 0; i < 1000; i++) budget.runPhase(1, 0, () => clock.work(0.001), () => 1);
    expect(clock.cpuReads).toBe(0);
    budget.runPhase(2, 0, () => { clock.work(1); clock.wait(50); }, () => 2); // ended late by waiting
    expect(clock.cpuReads).toBe(1);
    // 1 + 1 ms charged: 8 left.
    expect(caught(() => budget.runPhase(3, 0, () => { clock.work(7.9); budget.exec(/x/, short); }, () => 3))).toBeUndefined();
    expect(caught(() => budget.runPhase(4, 0, () => { clock.work(0.2); budget.exec(/x/, short); }, () => 4))).toBeInstanceOf(EngineBudgetExceeded);
  });

  it('errors other than the budget pass through unchanged', () => {
    const budget = new TimeBudget(1000, new FakeClock());
    const boom = new Error('operator bug');
    expect(caught(() => budget.runPhase(2, guardLength(1000), () => { throw boom; }, () => 1))).toBe(boom);
    expect(caught(() => budget.runPhase(2, 0, () => { throw boom; }, () => 1))).toBe(boom);
  });
});

describe('TimeBudget watchdogs (real time, unbounded work)', () => {
  it.each(['exec', 'test'] as const)('a watchdog stops one long %s the checks could not interrupt', (run) => {
    const budget = new TimeBudget(30);
    expect(slowSubject.length).toBeGreaterThanOrEqual(guardLength(30));
    // longestInput 0: the phase itself is not guarded, so this is the per-exec watchdog.
    const err = caught(() => budget.runPhase(2, 0, () => { budget[run](slowRegex, slowSubject); }, () => 941160));
    expect(err).toBeInstanceOf(EngineBudgetExceeded);
    expect((err as EngineBudgetExceeded).ruleId).toBe(941160);
  });

  it('a phase with a long input runs under one watchdog: even work between checks is stopped', () => {
    const budget = new TimeBudget(30);
    const err = caught(() => budget.runPhase(2, guardLength(30), () => { for (;;) { /* no check ever */ } }, () => 920170));
    expect(err).toBeInstanceOf(EngineBudgetExceeded);
    expect((err as EngineBudgetExceeded).ruleId).toBe(920170);
  });

  it('a phase watchdog that stops a thread with CPU time left says so, and a longer stretch is asked of the next run', () => {
    // A tenth of a core, seen from the budget: the phase watchdog fires (wall time) long before 30
    // ms of CPU, so the error says the thread was waiting, and the caller may run the request again.
    const err = caught(() => new TimeBudget(30, new ScaledCpuClock(0.1)).runPhase(2, guardLength(30), () => { for (;;) { /* work */ } }, () => 920170));
    expect(err).toMatchObject({ phase: 2, ruleId: 920170, stoppedWaiting: true });
    // Spent by a check: its own work, final.
    const clock = new FakeClock();
    const budget = new TimeBudget(5, clock);
    const spent = caught(() => budget.runPhase(2, 0, () => { for (;;) { clock.work(1); budget.exec(/x/, short); } }, () => 1));
    expect(spent).toMatchObject({ phase: 2, stoppedWaiting: false });
  });

  it('an exec stopped while the thread waited runs again, and its stopped attempts are not charged', () => {
    // The clock counts a tenth of the CPU the thread uses: to the budget this thread gets a tenth
    // of a core, so the watchdog (wall time) stops the first attempt while 90 % of it was waiting.
    // Measured, not assumed: the exec is sized to take about 3 budgets of this thread's CPU time.
    // CPU, not wall time: on a loaded box a wall-time measure comes out long, the budget with it,
    // and the first attempt could then finish inside its watchdog. In wall time a watchdog of one
    // budget can never hold 3 budgets of CPU, however idle the box.
    const cpu = threadClock();
    const subject = (n: number) => '<<'.repeat(n) + '!';
    const cpuTimeOf = (n: number) => {
      const started = cpu.cpuMs();
      slowRegex.exec(subject(n));
      return cpu.cpuMs() - started;
    };
    let n = 256;
    while (Math.min(cpuTimeOf(n), cpuTimeOf(n)) < 60) n *= 2; // CPU ms; at ~45 us a byte, n is ~1 K
    const cpuMs = Math.min(cpuTimeOf(n), cpuTimeOf(n), cpuTimeOf(n));
    const budget = new TimeBudget(cpuMs / 3, new ScaledCpuClock(0.1));
    let attempts = 0;
    const counted = new Proxy(slowRegex, {
      get(target, key) {
        if (key === 'exec') return (input: string) => { attempts++; return target.exec(input); };
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    expect(caught(() => budget.runPhase(2, 0, () => { budget.exec(counted, subject(n)); }, () => 941160))).toBeUndefined();
    expect(attempts).toBeGreaterThanOrEqual(2);
  });

  it('an interrupted regex is left working: the next exec matches as before', () => {
    expect(caught(() => runInterruptible(() => slowRegex.exec(slowSubject), 20))).toBeInstanceOf(Interrupted);
    expect(slowRegex.lastIndex).toBe(0);
    expect(slowRegex.exec('<script>alert(1)</script>')).not.toBeNull();
    expect(slowRegex.exec('hello world')).toBeNull();
    expect(runInterruptible(() => slowRegex.test('<<!'), 1000)).toBe(false);
  });
});

// Clocks for the time budget's unit tests: time that passes only when the test says so.
import type { BudgetClock } from '../../../../daemon/engine/budget/thread-clock.js';
import { threadClock } from '../../../../daemon/engine/budget/thread-clock.js';

/** Wall and CPU time that move only by work() (both) and wait() (wall only: descheduled). */
export class FakeClock implements BudgetClock {
  wall = 1000;
  cpu = 50;
  stretch = 1;
  cpuReads = 0;

  work(ms: number): void {
    this.wall += ms;
    this.cpu += ms;
  }

  wait(ms: number): void {
    this.wall += ms;
  }

  wallMs(): number {
    return this.wall;
  }

  cpuMs(): number {
    this.cpuReads++;
    return this.cpu;
  }

  recentCpuMs(): number {
    return this.cpu;
  }

  recentStretch(): number {
    return this.stretch;
  }
}

/** The real clocks, but CPU time counted at `share` of what the thread used: a thread that gets
 *  only that share of a core, seen from the budget (for the watchdog paths, which run real time). */
export class ScaledCpuClock implements BudgetClock {
  private readonly real = threadClock();
  constructor(private readonly share: number) {}

  wallMs(): number {
    return this.real.wallMs();
  }

  cpuMs(): number {
    return this.real.cpuMs() * this.share;
  }

  recentCpuMs(): number {
    return this.cpuMs();
  }

  recentStretch(): number {
    return 1;
  }
}

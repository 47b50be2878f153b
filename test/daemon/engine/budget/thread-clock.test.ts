// The budget's real clock: the thread's CPU time moves with work and not with waiting.
import { describe, expect, it } from 'vitest';
import { threadClock } from '../../../../daemon/engine/budget/thread-clock.js';

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('ThreadClock', () => {
  const clock = threadClock();

  it('reads the thread\'s own CPU time on Linux', () => {
    expect(clock.perThread).toBe(process.platform === 'linux');
  });

  it('CPU time grows with work, not with sleep; wall time grows with both', () => {
    const cpu0 = clock.cpuMs();
    const wall0 = clock.wallMs();
    while (clock.cpuMs() - cpu0 < 5) { /* work until 5 ms of CPU have passed */ }
    expect(clock.wallMs() - wall0).toBeGreaterThanOrEqual(5 - 0.01); // the thread cannot work faster than time passes
    const cpu1 = clock.cpuMs();
    const wall1 = clock.wallMs();
    sleepMs(50);
    expect(clock.wallMs() - wall1).toBeGreaterThanOrEqual(50 - 1);
    expect(clock.cpuMs() - cpu1).toBeLessThan(5);
  });

  it('a recent reading is never ahead of the exact one, and the stretch is within its bounds', () => {
    const recent = clock.recentCpuMs(clock.wallMs());
    expect(recent).toBeLessThanOrEqual(clock.cpuMs());
    expect(clock.recentStretch()).toBeGreaterThanOrEqual(1);
    expect(clock.recentStretch()).toBeLessThanOrEqual(4);
  });
});

// The budget's real clock: the thread's time moves with its work and not while it waits for a core.
// To make it wait, the test pins this process and a busy loop on one core, so that the scheduler
// shares that core between them; nothing is timed, only compared.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { threadClock } from '../../../../daemon/engine/budget/thread-clock.js';

const clock = threadClock();

/** CPU ticks a process has used (utime + stime from /proc/PID/stat). */
function ticksOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

describe('ThreadClock', () => {
  let rival: ChildProcess | undefined;
  afterEach(() => {
    rival?.kill('SIGKILL');
    rival = undefined;
    if (process.platform === 'linux') execFileSync('taskset', ['-a', '-p', '-c', `0-${cpus().length - 1}`, String(process.pid)], { stdio: 'ignore' });
  });

  it('reads the thread\'s own figures on Linux', () => {
    expect(clock.perThread).toBe(process.platform === 'linux');
  });

  it('work moves it as far as wall time, to within the readings', () => {
    const cpu0 = clock.cpuMs();
    const wall0 = clock.wallMs();
    while (clock.cpuMs() - cpu0 < 5) { /* work until 5 ms of it have passed */ }
    // The thread cannot have worked longer than wall time passed.
    expect(clock.cpuMs() - cpu0).toBeLessThanOrEqual(clock.wallMs() - wall0 + 0.01);
  });

  it.runIf(process.platform === 'linux')('time spent waiting for a core does not count', async () => {
    // This process and a busy loop share core 0: each gets about half of it.
    execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
    rival = spawn('taskset', ['-c', '0', 'sh', '-c', 'while :; do :; done'], { stdio: 'ignore' });
    const pid = rival.pid!;
    // Wait until the rival has run (it is on the core's run queue), as an event, not a sleep.
    while (ticksOf(pid) < 2) await new Promise((resolve) => setImmediate(resolve));
    const cpu0 = clock.cpuMs();
    const wall0 = clock.wallMs();
    while (clock.wallMs() - wall0 < 100) { /* work for 100 ms of wall time */ }
    const worked = clock.cpuMs() - cpu0;
    const wall = clock.wallMs() - wall0;
    expect(worked).toBeGreaterThan(0);
    expect(worked, `worked ${worked.toFixed(1)} of ${wall.toFixed(1)} ms`).toBeLessThan(wall * 0.8);
  });

  it('a recent reading is never ahead of the exact one, and the stretch is within its bounds', () => {
    const recent = clock.recentCpuMs(clock.wallMs());
    expect(recent).toBeLessThanOrEqual(clock.cpuMs());
    expect(clock.recentStretch()).toBeGreaterThanOrEqual(1);
    expect(clock.recentStretch()).toBeLessThanOrEqual(4);
  });
});

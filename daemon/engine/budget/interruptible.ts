// Running JavaScript that the event loop may have to abandon. One regex exec, or one phase of rules,
// cannot be stopped by a check in our own code: V8 only gives up a running script when asked from
// another thread, which node exposes as vm's `timeout` (a watchdog thread per call that terminates
// the script, then the call throws ERR_SCRIPT_EXECUTION_TIMEOUT). The job runs in this realm: the
// context only holds the one-line script that calls it, so every object it makes is an ordinary one.
//
// Cost: the watchdog thread is started and joined per call
// (bench/engine-parts/interruptible-cost.ts: 62 us at load 1.7, ~470 us with the other core busy),
// so callers use it only when the work could be long.
import { createContext, Script } from 'node:vm';

/** Thrown when the job was stopped at its time limit. */
export class Interrupted extends Error {
  constructor(readonly afterMs: number) {
    super(`stopped after ${afterMs} ms`);
    this.name = 'Interrupted';
  }
}

const sandbox: { job: (() => unknown) | undefined } = { job: undefined };
const context = createContext(sandbox);
const callJob = new Script('job()', { filename: 'wafctl-interruptible' });

/** Whether a job is running now (a nested call would start a second watchdog: callers avoid it). */
let running = false;

export function isInterruptibleRunning(): boolean {
  return running;
}

/**
 * `job()`, stopped with `Interrupted` once it has run `limitMs` (wall clock, rounded up to whole
 * ms, at least 1: vm's unit). Whatever the job threw otherwise is thrown as it is.
 */
export function runInterruptible<T>(job: () => T, limitMs: number): T {
  const timeout = Math.max(1, Math.ceil(limitMs));
  sandbox.job = job;
  running = true;
  try {
    return callJob.runInContext(context, { timeout }) as T;
  } catch (err) {
    if ((err as { code?: string } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new Interrupted(timeout);
    throw err;
  } finally {
    running = false;
    sandbox.job = undefined;
  }
}

import { closeSync, lstatSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { readOwnedFileSync } from './safe-open.js';

// One daemon per data dir: <data>/wafctl.pid, created exclusively (O_EXCL). A pid file whose process
// is gone (or is not a wafctl daemon any more: pids get reused) is stale and taken over. The takeover
// itself is guarded by a second exclusive file so two daemons starting at once over the same stale
// pid file cannot both win. O_EXCL never follows a link; reads do not either (safe-open.ts).

export class AlreadyRunningError extends Error {
  readonly pid: number;
  constructor(pid: number) {
    super(`already running (pid ${pid})`);
    this.name = 'AlreadyRunningError';
    this.pid = pid;
  }
}

export interface PidLock {
  readonly file: string;
  release(): void;
}

const TAKEOVER_STALE_MS = 10_000;

export function acquirePidLock(file: string, pid = process.pid): PidLock {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    if (tryCreate(file, pid)) return lockFor(file, pid);
    const holder = readPid(file);
    if (holder !== null && holder !== pid && isLiveDaemon(holder)) throw new AlreadyRunningError(holder);
    if (holder === null && isFresh(file)) {
      sleep(25); // another daemon is between creating and writing the file
      continue;
    }
    takeOverStale(file, holder);
  }
  throw new Error(`could not take the lock ${file}: it keeps changing; is another daemon starting?`);
}

function lockFor(file: string, pid: number): PidLock {
  return {
    file,
    release() {
      // Only remove the file if it is still ours.
      if (readPid(file) === pid) unlinkSync(file);
    },
  };
}

function tryCreate(file: string, pid: number): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

function takeOverStale(file: string, stalePid: number | null): void {
  const guard = `${file}.takeover`;
  try {
    closeSync(openSync(guard, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (!isFresh(guard, TAKEOVER_STALE_MS)) unlinkQuietly(guard); // left by a daemon that died mid-takeover
    sleep(25);
    return;
  }
  try {
    // Re-check under the guard: someone may have taken over already and written a live pid.
    if (readPid(file) === stalePid) {
      const aside = `${file}.stale-${process.pid}`;
      renameSync(file, aside);
      unlinkQuietly(aside);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  } finally {
    unlinkQuietly(guard);
  }
}

export function readPid(file: string): number | null {
  try {
    const text = readOwnedFileSync(file)?.toString('utf8').trim() ?? '';
    return /^\d+$/.test(text) ? Number(text) : null;
  } catch {
    return null;
  }
}

export function isLiveDaemon(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    // On Linux, make sure the pid still belongs to a wafctl daemon and not to a process that reused it.
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.includes('daemon/main');
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

function isFresh(file: string, withinMs = 2_000): boolean {
  try {
    return Date.now() - lstatSync(file).mtimeMs < withinMs;
  } catch {
    return false;
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

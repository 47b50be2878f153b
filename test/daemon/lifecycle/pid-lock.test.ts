import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquirePidLock, AlreadyRunningError, isLiveDaemon } from '../../../daemon/lifecycle/pid-lock.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wafctl-pid-'));
  file = join(dir, 'wafctl.pid');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('pid lock', () => {
  it('writes our pid and removes the file on release', async () => {
    const lock = acquirePidLock(file);
    expect((await readFile(file, 'utf8')).trim()).toBe(String(process.pid));
    lock.release();
    expect(existsSync(file)).toBe(false);
  });

  it('refuses while a live daemon holds it', async () => {
    // A process whose command line names daemon/main, like the real daemon's.
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)', 'daemon/main.js'], { stdio: 'ignore' });
    await once(holder, 'spawn');
    try {
      expect(isLiveDaemon(holder.pid!)).toBe(true);
      await writeFile(file, `${holder.pid}\n`);
      expect(() => acquirePidLock(file)).toThrow(AlreadyRunningError);
      expect(() => acquirePidLock(file)).toThrow(`already running (pid ${holder.pid})`);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('takes over a pid file whose process is gone', async () => {
    const gone = spawn(process.execPath, ['-e', '0']);
    await once(gone, 'exit');
    await writeFile(file, `${gone.pid}\n`);
    const lock = acquirePidLock(file);
    expect((await readFile(file, 'utf8')).trim()).toBe(String(process.pid));
    lock.release();
  });

  it('takes over a pid file whose pid now belongs to some other program', async () => {
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    await once(other, 'spawn');
    try {
      expect(isLiveDaemon(other.pid!)).toBe(false);
      await writeFile(file, `${other.pid}\n`);
      acquirePidLock(file).release();
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('takes over a pid file with garbage in it once it is not fresh', async () => {
    await writeFile(file, 'garbage');
    const old = new Date(Date.now() - 60_000);
    const { utimes } = await import('node:fs/promises');
    await utimes(file, old, old);
    acquirePidLock(file).release();
  });

  it('release leaves a pid file that is no longer ours', async () => {
    const lock = acquirePidLock(file);
    await writeFile(file, '1\n');
    lock.release();
    expect(existsSync(file)).toBe(true);
  });
});

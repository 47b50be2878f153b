import { access, chmod, constants, mkdir, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkDataDirTrust, UntrustedPathError } from './data-dir-trust.js';
import { UnsafeFileError } from './safe-open.js';

// The checks and messages of a start that cannot go on. Each failure is ONE line naming the problem
// (`wafctl daemon start` prints it and exits non-zero).

export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

/**
 * Creates the data dir (0700) if needed, refuses one another user could control (data-dir-trust.ts:
 * the way there before anything is created, then the dir and every entry in it before anything is
 * written) and proves it is writable.
 */
export async function prepareDataDir(dir: string): Promise<void> {
  await trusted(() => checkDataDirTrust(dir, { entries: false }));
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new StartupError(`data dir ${dir} cannot be created: ${reason(error)}`);
  }
  const info = await notWritable(dir, async () => {
    const found = await stat(dir);
    if (!found.isDirectory()) throw new StartupError(`data dir ${dir} is not a directory`);
    await access(dir, constants.W_OK | constants.X_OK);
    return found;
  });
  await trusted(() => checkDataDirTrust(dir, { entries: true }));
  await notWritable(dir, async () => {
    const probe = join(dir, `.write-test-${process.pid}`);
    await writeFile(probe, '', { mode: 0o600, flag: 'wx' });
    await unlink(probe);
    if (process.getuid && info.uid === process.getuid()) await chmod(dir, 0o700);
  });
}

async function notWritable<T>(dir: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof StartupError) throw error;
    throw new StartupError(`data dir ${dir} is not writable: ${reason(error)}`);
  }
}

/** Runs a trust check; its refusal, or a failure to check, becomes one start error line. */
export async function trusted(check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (error) {
    if (error instanceof UntrustedPathError || error instanceof UnsafeFileError) throw new StartupError(error.message);
    throw new StartupError(`cannot check ${(error as NodeJS.ErrnoException).path ?? 'the data dir'}: ${reason(error)}`);
  }
}

/** "api port 9443 is already in use (--api-port)" and friends. */
export function listenError(error: unknown, what: string, port: number, flag: string, host: string): StartupError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new StartupError(`${what} port ${port} is already in use on ${host} (choose another with --${flag})`);
  if (code === 'EACCES') return new StartupError(`${what} port ${port} needs privileges to bind (choose another with --${flag})`);
  if (code === 'EADDRNOTAVAIL') return new StartupError(`${what} cannot bind ${host}: no such local address (--listen-host)`);
  return new StartupError(`${what} cannot listen on ${host}:${port}: ${reason(error)}`);
}

function reason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e.code === 'EACCES' || e.code === 'EPERM') return 'permission denied';
  if (e.code === 'ENOTDIR') return 'a parent path is not a directory';
  if (e.code === 'EROFS') return 'read-only file system';
  return e.message ?? String(error);
}

import { closeSync, constants, fchmodSync, fstatSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { daemonUid, ownedEntryProblem, symlinkProblem } from './file-trust.js';

// The daemon's own files are opened without following a symbolic link (O_NOFOLLOW): a link planted
// in place of the log, a key or the config is refused with an error naming it, never followed to
// a file of the attacker's choosing (security review M3). New secrets are written to a fresh file
// (O_EXCL) and renamed into place, which replaces a link instead of writing through it.

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_TRUNC, O_APPEND } = constants;
/** 0 where the platform has no O_NOFOLLOW (Windows): the flag is then a no-op. */
export const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

export const READ_NO_FOLLOW = O_RDONLY | O_NOFOLLOW;
export const APPEND_NO_FOLLOW = O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW;
export const REWRITE_NO_FOLLOW = O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW;
export const CREATE_NEW = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;

export class UnsafeFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeFileError';
  }
}

/** ELOOP from O_NOFOLLOW means "the last component is a symbolic link": say so, by name. */
export function explainOpenError(error: unknown, path: string): unknown {
  if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
    return new UnsafeFileError(symlinkProblem(path));
  }
  return error;
}

/**
 * Opens a data-dir file for appending (created with `mode`), refusing a link and a file another
 * user controls, and brings an existing file's mode to `mode`. Returns the fd.
 */
export function openAppendOwnedSync(path: string, mode: number): number {
  let fd: number;
  try {
    fd = openSync(path, APPEND_NO_FOLLOW, mode);
  } catch (error) {
    throw explainOpenError(error, path);
  }
  try {
    refuseForeign(fd, path);
    fchmodSync(fd, mode);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/** Writes a small data-dir file in place (truncating it) without following a link; mode `mode`. */
export function rewriteFileSync(path: string, data: string, mode: number): void {
  let fd: number;
  try {
    fd = openSync(path, REWRITE_NO_FOLLOW, mode);
  } catch (error) {
    throw explainOpenError(error, path);
  }
  try {
    fchmodSync(fd, mode);
    writeFileSync(fd, data);
  } finally {
    closeSync(fd);
  }
}

/** Reads a data-dir file without following a link; null when it does not exist. */
export function readOwnedFileSync(path: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, READ_NO_FOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw explainOpenError(error, path);
  }
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Like readOwnedFileSync, and the file must be owned by the daemon's user or root and not writable by others. */
export async function readTrustedFile(path: string): Promise<Buffer | null> {
  let handle;
  try {
    handle = await open(path, READ_NO_FOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw explainOpenError(error, path);
  }
  try {
    refuseForeign(handle.fd, path);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `path` with `data`: a fresh temp file beside it (O_EXCL, `mode`), fsynced, renamed over
 * the old name. A link or a foreign file at `path` is replaced, never written through.
 */
export async function replaceFile(path: string, data: string | Buffer, mode: number): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  await unlink(temp).catch(() => undefined); // left by a daemon killed while writing
  const handle = await open(temp, CREATE_NEW, mode);
  try {
    await handle.chmod(mode); // the umask may have taken bits off; the mode is the promise
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path);
}

function refuseForeign(fd: number, path: string): void {
  const euid = daemonUid();
  if (euid === null) return;
  const problem = ownedEntryProblem(path, fstatSync(fd), euid);
  if (problem !== null) throw new UnsafeFileError(problem);
}

import { lstat, readdir, readlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { Stats } from 'node:fs';
import { ancestorProblem, daemonUid, ownedEntryProblem, ownerProblem } from './file-trust.js';

// Whether the data dir can be trusted before the daemon reads its settings and keys from it or
// writes its log, keys and events into it (security review M3). Like sshd's StrictModes:
//  - every directory from / to the data dir, following symbolic links the way the kernel does,
//    is owned by the daemon's user or root and not writable by group or others unless sticky
//    (/tmp); a symbolic link on the way is owned by the daemon's user or root;
//  - the data dir itself and every entry under it: owned by the daemon's user or root, not
//    writable by group or others (sticky or not), no symbolic links, no hard-linked files.
// Once that holds nobody else can plant anything there while the daemon runs; its own files are
// also opened with O_NOFOLLOW (safe-open.ts) so a link is refused, never followed.

export class UntrustedPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UntrustedPathError';
  }
}

const MAX_LINKS = 40; // Linux's MAXSYMLINKS

/**
 * Checks the directories leading to `path` (every link and directory on the way, with the ancestor
 * rule; the final directory only for its owner: the caller applies its own rule to it). Returns the
 * real path, or null when part of it does not exist yet (what exists was checked).
 */
export async function checkPathChain(path: string, euid: number, what: string): Promise<string | null> {
  const pending = components(resolve(path));
  let real: string = sep;
  await checkAncestor(real, euid, what);
  let links = 0;
  while (pending.length > 0) {
    const name = pending.shift()!;
    if (name === '.') continue;
    if (name === '..') {
      real = dirname(real);
      continue;
    }
    const next = join(real, name);
    let info: Stats;
    try {
      info = await lstat(next);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return null; // the caller creates it, or reports it
      throw error;
    }
    // The last component (pending empty, not a link) is the target itself: owner only here.
    const isTarget = pending.length === 0 && !info.isSymbolicLink();
    refuse(isTarget ? ownerProblem(next, info, euid) : ancestorProblem(next, info, euid), what);
    if (info.isSymbolicLink()) {
      if (++links > MAX_LINKS) throw new UntrustedPathError(`${what} is not safe: too many symbolic links under ${next}`);
      const target = await readlink(next);
      pending.unshift(...components(target));
      if (isAbsolute(target)) real = sep;
      continue;
    }
    real = next;
  }
  return real;
}

/**
 * The data dir, once it exists: its chain, the dir itself, and (with `entries`) every entry under
 * it. Throws UntrustedPathError with one line naming the path, what was found and the fix.
 */
export async function checkDataDirTrust(dir: string, options: { entries: boolean }): Promise<void> {
  const euid = daemonUid();
  if (euid === null) return;
  const what = `data dir ${dir}`;
  const real = await checkPathChain(dir, euid, what);
  if (real === null) return; // not created yet
  const info = await lstat(real);
  if (!info.isDirectory()) return; // reported by the writability check with its own message
  refuse(ownedEntryProblem(real, info, euid), what);
  if (options.entries) await checkEntries(real, euid, what);
}

/** The directory an admin socket outside the data dir is created in: the ancestor rule, up to /. */
export async function checkSocketDirTrust(socketPath: string): Promise<void> {
  const euid = daemonUid();
  if (euid === null) return;
  const what = `admin socket ${socketPath}`;
  const real = await checkPathChain(dirname(resolve(socketPath)), euid, what);
  if (real !== null) refuse(ancestorProblem(real, await lstat(real), euid), what);
}

async function checkEntries(dir: string, euid: number, what: string): Promise<void> {
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    let info: Stats;
    try {
      info = await lstat(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // removed meanwhile (by us)
      throw error;
    }
    refuse(ownedEntryProblem(path, info, euid), what);
    if (info.isDirectory()) await checkEntries(path, euid, what);
  }
}

function refuse(problem: string | null, what: string): void {
  if (problem !== null) throw new UntrustedPathError(`${what} is not safe: ${problem}`);
}

async function checkAncestor(path: string, euid: number, what: string): Promise<void> {
  refuse(ancestorProblem(path, await lstat(path), euid), what);
}

function components(path: string): string[] {
  return path.split(sep).filter((part) => part !== '');
}

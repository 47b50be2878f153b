import type { Stats } from 'node:fs';

// Who may control a file or directory the daemon relies on, as sshd's StrictModes decides it: the
// daemon's own user or root may own it, and neither its group nor others may write it. A symbolic
// link is never trusted in the daemon's own files (it is refused, not followed). These rules are
// the one place that decides; data-dir-trust.ts walks paths with them, safe-open.ts applies them
// to files it has opened.

/** The effective uid to trust besides root, or null where there are no uids (Windows): no checks. */
export function daemonUid(): number | null {
  return typeof process.geteuid === 'function' ? process.geteuid() : null;
}

export function isTrustedOwner(uid: number, euid: number): boolean {
  return uid === euid || uid === 0;
}

/** "owner uid 65534, mode 0777" */
export function describeOwnerAndMode(info: Stats): string {
  return `owner uid ${info.uid}, mode ${(info.mode & 0o7777).toString(8).padStart(4, '0')}`;
}

/**
 * What is wrong with a file or directory the daemon owns the contents of (the data dir and every
 * entry in it), as "PATH is ...; fix: ..."; null when nothing is. `info` comes from lstat or fstat.
 */
export function ownedEntryProblem(path: string, info: Stats, euid: number): string | null {
  if (info.isSymbolicLink()) return symlinkProblem(path);
  if (!info.isFile() && !info.isDirectory() && !info.isSocket()) return `${path} is not a regular file or directory (${describeOwnerAndMode(info)}); fix: rm ${path}`;
  if (!isTrustedOwner(info.uid, euid)) return foreignOwner(path, info, euid);
  if (info.mode & 0o022) return `${path} is writable by group or others (${describeOwnerAndMode(info)}); fix: chmod go-w ${path}`;
  // A second name for a file lets whoever made it point the daemon's writes elsewhere.
  if (info.isFile() && info.nlink > 1) return `${path} has ${info.nlink} hard links (${describeOwnerAndMode(info)}); fix: give it its own copy (cp ${path} ${path}.new && mv ${path}.new ${path})`;
  return null;
}

/**
 * What is wrong with a directory on the way to the data dir (or to the admin socket): owned by the
 * daemon's user or root, and not writable by group or others unless it is sticky (like /tmp,
 * where nobody but an entry's owner may rename or remove it: the entries after it are checked).
 */
export function ancestorProblem(path: string, info: Stats, euid: number): string | null {
  const owner = ownerProblem(path, info, euid);
  if (owner !== null) return owner;
  const sticky = (info.mode & 0o1000) !== 0;
  if (info.isDirectory() && info.mode & 0o022 && !sticky) {
    return `${path} is writable by group or others and not sticky (${describeOwnerAndMode(info)}), so another user could replace what is under it; fix: chmod go-w ${path} (or chmod +t ${path} for a shared dir like /tmp)`;
  }
  return null;
}

/** Only the owner rule (the target of a path walk, which the caller checks further). */
export function ownerProblem(path: string, info: Stats, euid: number): string | null {
  return isTrustedOwner(info.uid, euid) ? null : foreignOwner(path, info, euid);
}

export function symlinkProblem(path: string): string {
  return `${path} is a symbolic link, which the daemon does not follow in its data dir; fix: replace it with the file itself (rm ${path})`;
}

function foreignOwner(path: string, info: Stats, euid: number): string {
  const who = euid === 0 ? 'root' : `the daemon's user (uid ${euid}) or root`;
  return `${path} is owned by another user (${describeOwnerAndMode(info)}), not by ${who}; fix: check what is in it, then chown ${euid} ${path}, or use another path`;
}

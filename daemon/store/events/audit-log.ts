// Optional audit log (`--audit-log FILE`): every committed WAF event as one JSON line, in id
// order, for SIEM shipping. It is written after the group is durable in its segments, so it
// never holds an event the store does not; a write failure is logged, never fatal, and never
// rejects an append (the events are safe in the store).
//
// The lines hold client addresses and up to 512 characters of matched request data, partly the
// attacker's choice (security review M3/L3). So the file is opened at start (a refusal stops the
// start with one line), never through a symbolic link (O_NOFOLLOW: a link planted in its place
// could aim the daemon's appends at any file it may write), only if it is a regular file with one
// name, owned by the daemon's user; and an existing file's mode is brought to 0600.
import fs from 'node:fs';
import type { EventLogger } from './event-logger.js';
import { writeAll } from './segment-files.js';

const { O_WRONLY, O_APPEND, O_CREAT } = fs.constants;
const OPEN_FLAGS = O_WRONLY | O_APPEND | O_CREAT | (fs.constants.O_NOFOLLOW ?? 0);
export const AUDIT_LOG_MODE = 0o600;

export class AuditLogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuditLogError';
  }
}

export class AuditLog {
  private fd: number | null = null;
  failures = 0;

  private constructor(
    readonly file: string,
    private readonly logger: EventLogger,
  ) {}

  /** Opens (creates) the file now: throws AuditLogError naming the file and the fix when it is refused or cannot be opened. */
  static async open(file: string, logger: EventLogger): Promise<AuditLog> {
    const log = new AuditLog(file, logger);
    log.fd = await openAuditFile(file);
    return log;
  }

  /** Appends whole lines (UTF-8 buffers, in order). */
  async append(lines: readonly Buffer[]): Promise<void> {
    try {
      if (this.fd === null) this.fd = await openAuditFile(this.file);
      const fd = this.fd;
      await writeAll(fd, lines);
      await new Promise<void>((res, rej) => fs.fdatasync(fd, (e) => (e ? rej(e) : res())));
    } catch (err) {
      this.failures++;
      this.logger.error('audit log write failed', { file: this.file, error: (err as Error).message });
      this.close();
    }
  }

  close(): void {
    if (this.fd !== null) fs.close(this.fd, () => undefined);
    this.fd = null;
  }
}

async function openAuditFile(file: string): Promise<number> {
  let fd: number;
  try {
    fd = await new Promise<number>((res, rej) => fs.open(file, OPEN_FLAGS, AUDIT_LOG_MODE, (e, n) => (e ? rej(e) : res(n))));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ELOOP') throw new AuditLogError(`audit log ${file} is a symbolic link, which the daemon does not follow; fix: point --audit-log at the file itself`);
    throw new AuditLogError(`audit log ${file} cannot be opened: ${e.code === 'EACCES' ? 'permission denied' : e.message}`);
  }
  try {
    const info = await new Promise<fs.Stats>((res, rej) => fs.fstat(fd, (e, s) => (e ? rej(e) : res(s))));
    const problem = auditFileProblem(file, info);
    if (problem !== null) throw new AuditLogError(problem);
    // fs.open's mode only applies when the file is created: an existing 0644 file is tightened.
    if ((info.mode & 0o777) !== AUDIT_LOG_MODE) await new Promise<void>((res, rej) => fs.fchmod(fd, AUDIT_LOG_MODE, (e) => (e ? rej(e) : res())));
    return fd;
  } catch (err) {
    fs.close(fd, () => undefined);
    if (err instanceof AuditLogError) throw err;
    throw new AuditLogError(`audit log ${file} cannot be made private (mode 0600): ${(err as Error).message}`);
  }
}

function auditFileProblem(file: string, info: fs.Stats): string | null {
  const mode = (info.mode & 0o7777).toString(8).padStart(4, '0');
  if (!info.isFile()) return `audit log ${file} is not a regular file (mode ${mode}); fix: point --audit-log at a regular file`;
  const euid = typeof process.geteuid === 'function' ? process.geteuid() : null;
  if (euid !== null && info.uid !== euid) {
    return `audit log ${file} is owned by uid ${info.uid}, not by the daemon's user (uid ${euid}); fix: chown ${euid} ${file} (after checking it), or choose another file`;
  }
  if (info.nlink > 1) return `audit log ${file} has ${info.nlink} hard links; fix: give it its own file (mv ${file} ${file}.old)`;
  return null;
}

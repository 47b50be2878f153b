// Optional audit log (`--audit-log FILE`): every committed WAF event as one JSON line, in id
// order, for SIEM shipping. It is written after the group is durable in its segments, so it
// never holds an event the store does not; a failure here is logged, never fatal, and never
// rejects an append (the events are safe in the store).
import fs from 'node:fs';
import type { EventLogger } from './event-logger.js';
import { writeAll } from './segment-files.js';

export class AuditLog {
  private fd: number | null = null;
  failures = 0;

  constructor(
    readonly file: string,
    private readonly logger: EventLogger,
  ) {}

  /** Appends whole lines (UTF-8 buffers, in order). */
  async append(lines: readonly Buffer[]): Promise<void> {
    try {
      if (this.fd === null) this.fd = await new Promise<number>((res, rej) => fs.open(this.file, 'a', 0o600, (e, fd) => (e ? rej(e) : res(fd))));
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

// Group commit: appends queue up while a group is being written; the next group takes them
// all, writes each touched segment once, fdatasyncs them together, and only then makes the
// entries visible and resolves the appends. A failed write or sync cuts every touched
// segment back to its committed size and rejects the whole group. Groups, and exclusive
// jobs (retention, snapshots), run one at a time on one chain, in submission order.
import { EventStoreError } from '../event-store.js';
import type { AuditLog } from './audit-log.js';
import type { EventLogger } from './event-logger.js';
import type { IdSequence } from './id-sequence.js';
import type { SegmentFiles, SegmentHandle } from './segment-files.js';

/** Whole lines (UTF-8, each ending with '\n') for one segment file. */
export interface SegmentChunk {
  file: string;
  data: Buffer;
}

export interface PendingAppend {
  chunks: SegmentChunk[];
  lastId: number;
  /** WAF lines for the audit log, in id order. */
  audit: Buffer | null;
  /** Makes the entries visible to readers (index, rollups). */
  apply(): void;
  resolve(): void;
  reject(err: Error): void;
}

export class GroupCommit {
  private queue: PendingAppend[] = [];
  private scheduled = false;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly files: SegmentFiles,
    private readonly ids: IdSequence,
    private readonly audit: AuditLog | null,
    private readonly logger: EventLogger,
  ) {}

  submit(p: PendingAppend): void {
    this.queue.push(p);
    if (this.scheduled) return;
    this.scheduled = true;
    // setImmediate, not a microtask: appends made in the same turn of the event loop join.
    setImmediate(() => {
      this.scheduled = false;
      this.run(() => this.flush());
    });
  }

  /** Runs `job` alone: after the groups and jobs before it, before those after it. */
  exclusive<T>(job: () => Promise<T>): Promise<T> {
    let out!: Promise<T>;
    this.run(() => (out = job()).then(() => undefined));
    return this.chain.then(() => out);
  }

  /** Resolves when everything submitted so far is written (or rejected). */
  drain(): Promise<void> {
    return this.exclusive(async () => undefined);
  }

  private run(job: () => Promise<void>): void {
    this.chain = this.chain.then(job).catch((err) => this.logger.error('event store job failed', { error: (err as Error).message }));
  }

  private async flush(): Promise<void> {
    const group = this.queue;
    this.queue = [];
    if (group.length === 0) return;
    const byFile = new Map<string, Buffer[]>();
    let maxId = 0;
    const audit: Buffer[] = [];
    for (const p of group) {
      for (const c of p.chunks) {
        const all = byFile.get(c.file);
        if (all) all.push(c.data);
        else byFile.set(c.file, [c.data]);
      }
      if (p.lastId > maxId) maxId = p.lastId;
      if (p.audit) audit.push(p.audit);
    }
    const touched: SegmentHandle[] = [];
    const sizes = new Map<string, number>();
    try {
      await this.ids.reserve(maxId);
      for (const [file, data] of byFile) {
        const h = await this.files.handle(file);
        touched.push(h);
        sizes.set(file, await this.files.write(h, data));
      }
      await Promise.all(touched.map((h) => this.files.sync(h)));
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      this.logger.error('event write failed, group rejected', { code: e.code, error: e.message, appends: group.length });
      for (const h of touched) {
        await this.files.rollback(h).catch((re: Error) => this.logger.error('rollback of a failed group failed', { file: h.file, error: re.message }));
      }
      const rejection = new EventStoreError(`event store write failed: ${e.code ?? e.message}`, { cause: err });
      for (const p of group) p.reject(rejection);
      return;
    }
    for (const [file, n] of sizes) this.files.committed.set(file, (this.files.committed.get(file) ?? 0) + n);
    // The audit log is written once the group is durable in its segments (so it never holds an event
    // the store does not) and before the appends resolve, so a caller told "stored" finds its events
    // there too. AuditLog.append logs its own failures and never throws.
    if (this.audit && audit.length) await this.audit.append(audit);
    for (const p of group) {
      try {
        p.apply();
      } catch (err) {
        this.logger.error('index update failed', { error: (err as Error).message });
      }
      p.resolve();
    }
  }
}

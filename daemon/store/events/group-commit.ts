// Group commit: appends queue up while a group is being written; the next group takes them
// all, writes each touched segment once, fdatasyncs them together, and only then resolves
// the appends. A failed write or sync cuts every touched segment back to its committed size
// and rejects the whole group. Groups, and exclusive jobs (retention, snapshots), run one at
// a time on one chain, in submission order.
//
// Index updates of a committed group are deferred: they run (in id order) as soon as the
// next group has handed its write to the thread pool, so that their CPU overlaps that
// group's disk wait instead of adding to every commit cycle, or earlier when anything
// reads: every reader calls applyCommitted() first, so a caller that awaited an append
// always finds its entries (read-your-writes), and nothing uncommitted is ever visible.
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
  /** Makes the entries visible to readers (index, rollups); runs once, after the commit. */
  apply(): void;
  resolve(): void;
  reject(err: Error): void;
}

export class GroupCommit {
  private queue: PendingAppend[] = [];
  /** Committed appends whose apply() has not run yet, in id order. */
  private unapplied: PendingAppend[] = [];
  private applyScheduled = false;
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

  /** Runs the deferred index updates of every committed append (cheap when there are none). */
  applyCommitted(): void {
    const list = this.unapplied;
    if (list.length === 0) return;
    this.unapplied = [];
    for (const p of list) {
      try {
        p.apply();
      } catch (err) {
        this.logger.error('index update failed', { error: (err as Error).message });
      }
    }
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
        const written = this.files.write(h, data);
        // The write is in the thread pool: index the previous groups meanwhile.
        this.applyCommitted();
        sizes.set(file, await written);
      }
      await Promise.all(touched.map((h) => this.files.sync(h)));
    } catch (err) {
      this.applyCommitted(); // earlier groups are committed whatever happens to this one
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
    for (const p of group) this.unapplied.push(p);
    for (const p of group) p.resolve();
    // Without a next group to overlap with, the updates run one turn of the event loop later
    // (or earlier, when someone reads). Two hops: the resolved callers' next appends schedule
    // their group's flush in the first one, and that flush applies as soon as its write is
    // in the thread pool, before the second.
    if (!this.applyScheduled) {
      this.applyScheduled = true;
      setImmediate(() =>
        setImmediate(() => {
          this.applyScheduled = false;
          this.applyCommitted();
        }),
      );
    }
  }
}

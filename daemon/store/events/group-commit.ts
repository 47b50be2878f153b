// Group commit, pipelined: appends queue up; a group takes the queued appends, writes each
// touched segment once and fdatasyncs it; its appends resolve only after its own sync and
// every earlier group's. Up to `depth` groups are in flight at once: while one waits for the
// disk, the next one is written and its sync starts (concurrent fdatasyncs overlap on a
// virtual disk), instead of the disk idling while the CPU prepares the next group.
//
// Order and failure: groups write one after another (file order = id order) and are
// acknowledged in order. A failed write or sync stops every later group (none writes after
// it; those in flight are rejected however their own sync went, since their bytes follow the
// failed ones), lets the earlier ones finish (acknowledged on their own sync), and then cuts
// every touched segment back to its committed size before the next group starts.
//
// When a group starts: at the end of the event-loop turn in which appends arrived
// (setImmediate: appends of one turn share a group), or, when no group is in flight, at once
// when `startBytes` are queued, so the idle disk starts on the first writers' lines while
// later ones are still being serialised.
//
// Index updates of a committed group are deferred: they run (in id order) as soon as the next
// group has handed its write to the thread pool, so that their CPU overlaps a disk wait, or
// earlier when anything reads: every reader calls applyCommitted() first, so a caller that
// awaited an append always finds its entries, and nothing uncommitted is ever visible.
// Exclusive jobs (retention, drain) run alone: after every group before them, before any after.
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

export interface GroupCommitOptions {
  /** Groups in flight at once (1: one group at a time). The segment files need as many descriptors. */
  depth: number;
  /** Queued bytes that start a group at once (when none is in flight) rather than at the end of the turn. */
  startBytes: number;
}

export const DEFAULT_COMMIT: GroupCommitOptions = { depth: 2, startBytes: 192 * 1024 };

interface Job {
  run(): Promise<void>;
}

interface Group {
  slot: number;
  appends: PendingAppend[];
  touched: SegmentHandle[];
  sizes: Map<string, number>;
  settled: boolean;
  error: Error | null;
}

const isJob = (x: PendingAppend | Job): x is Job => !('chunks' in x);

function bytesOf(p: PendingAppend): number {
  let n = 0;
  for (const c of p.chunks) n += c.data.length;
  return n;
}

export class GroupCommit {
  /** Appends and exclusive jobs in submission order. */
  private queue: Array<PendingAppend | Job> = [];
  private queuedBytes = 0;
  private jobsQueued = 0;
  private jobRunning = false;
  /** Groups started and not yet acknowledged or rejected, oldest first. */
  private inFlight: Group[] = [];
  private started = 0;
  /** The last group's write stage (the next one writes after it). */
  private lastWrite: Promise<void> = Promise.resolve();
  /** A group failed: nothing more is written until it is rolled back. */
  private broken = false;
  /** The rejection of the failed group, given to every group after it. */
  private failure: EventStoreError | null = null;
  /** Groups to reject once the failure has drained and the segments are cut back. */
  private rejected: Group[] = [];
  private advancing = false;
  /** Committed appends whose apply() has not run yet, in id order. */
  private unapplied: PendingAppend[] = [];
  private applyScheduled = false;
  private scheduled = false;

  constructor(
    private readonly files: SegmentFiles,
    private readonly ids: IdSequence,
    private readonly audit: AuditLog | null,
    private readonly logger: EventLogger,
    private readonly opts: GroupCommitOptions = DEFAULT_COMMIT,
  ) {}

  submit(p: PendingAppend): void {
    this.queue.push(p);
    this.queuedBytes += bytesOf(p);
    // Only with nothing in flight: then the disk is idle and this splits a burst of writers in
    // two (the halves alternate from then on). With a group in flight the burst waits for the
    // end of the turn, so completions that arrive together merge into one larger group again
    // (fewer wake-ups per row on a busy CPU).
    if (this.inFlight.length === 0 && this.queuedBytes >= this.opts.startBytes && this.jobsQueued === 0) this.pump();
    if (this.queue.length === 0 || this.scheduled) return;
    this.scheduled = true;
    // setImmediate, not a microtask: appends made in the same turn of the event loop join.
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  /** Runs `job` alone: after the groups and jobs before it, before those after it. */
  exclusive<T>(job: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        run: () =>
          Promise.resolve().then(job).then(resolve, (err: Error) => {
            this.logger.error('event store job failed', { error: err.message });
            reject(err);
          }),
      });
      this.jobsQueued++;
      this.pump();
    });
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

  /** Starts what may start: groups while slots are free, a job once nothing is in flight. */
  private pump(): void {
    while (this.queue.length > 0 && !this.jobRunning && !this.broken && !this.failure) {
      const head = this.queue[0];
      if (isJob(head)) {
        if (this.inFlight.length > 0) return;
        this.queue.shift();
        this.jobsQueued--;
        this.jobRunning = true;
        void head.run().finally(() => {
          this.jobRunning = false;
          this.pump();
        });
        return;
      }
      if (this.inFlight.length >= this.opts.depth) return;
      let n = 1;
      while (n < this.queue.length && !isJob(this.queue[n])) n++;
      const appends = this.queue.splice(0, n) as PendingAppend[];
      for (const p of appends) this.queuedBytes -= bytesOf(p);
      this.start(appends);
    }
  }

  private start(appends: PendingAppend[]): void {
    // A slot is reused only after its previous group was acknowledged (in-order, at most depth in flight).
    const g: Group = { slot: this.started++ % this.opts.depth, appends, touched: [], sizes: new Map(), settled: false, error: null };
    this.inFlight.push(g);
    const written = this.write(g, this.lastWrite);
    this.lastWrite = written.catch(() => undefined);
    written
      .then(() => Promise.all(g.touched.map((h) => this.files.sync(h, g.slot))))
      .catch((err: Error) => {
        this.broken = true;
        g.error = err;
      })
      .finally(() => {
        g.settled = true;
        void this.advance();
      });
  }

  /** Writes the group's lines after the previous group's write; throws if any group failed. */
  private async write(g: Group, previous: Promise<void>): Promise<void> {
    await previous;
    if (this.broken) throw new Error('an earlier group failed');
    try {
      const byFile = new Map<string, Buffer[]>();
      let maxId = 0;
      for (const p of g.appends) {
        for (const c of p.chunks) {
          const all = byFile.get(c.file);
          if (all) all.push(c.data);
          else byFile.set(c.file, [c.data]);
        }
        if (p.lastId > maxId) maxId = p.lastId;
      }
      await this.ids.reserve(maxId);
      for (const [file, data] of byFile) {
        const h = await this.files.handle(file);
        g.touched.push(h);
        const written = this.files.write(h, data, g.slot);
        // The write is in the thread pool: index the previous groups meanwhile.
        this.applyCommitted();
        g.sizes.set(file, await written);
      }
    } catch (err) {
      // Set before this rejection reaches the next group's write stage.
      this.broken = true;
      throw err;
    }
  }

  /** Acknowledges or rejects settled groups in order; rolls back once a failure has drained. */
  private async advance(): Promise<void> {
    if (this.advancing) return;
    this.advancing = true;
    try {
      while (this.inFlight.length > 0 && this.inFlight[0].settled) {
        const g = this.inFlight.shift()!;
        if (g.error && !this.failure) {
          const e = g.error as NodeJS.ErrnoException;
          this.logger.error('event write failed, group rejected', { code: e.code, error: e.message, appends: g.appends.length, in_flight: this.inFlight.length });
          this.failure = new EventStoreError(`event store write failed: ${e.code ?? e.message}`, { cause: e });
        }
        if (this.failure) {
          this.rejected.push(g);
        } else {
          await this.acknowledge(g);
        }
        if (this.failure && this.inFlight.length === 0) await this.rollBack();
        this.pump();
      }
    } finally {
      this.advancing = false;
    }
  }

  private async acknowledge(g: Group): Promise<void> {
    for (const [file, n] of g.sizes) this.files.committed.set(file, (this.files.committed.get(file) ?? 0) + n);
    // The audit log is written once the group is durable in its segments (so it never holds an
    // event the store does not) and before the appends resolve, so a caller told "stored" finds
    // its events there too. AuditLog.append logs its own failures and never throws.
    if (this.audit) {
      const lines: Buffer[] = [];
      for (const p of g.appends) if (p.audit) lines.push(p.audit);
      if (lines.length) await this.audit.append(lines);
    }
    for (const p of g.appends) this.unapplied.push(p);
    for (const p of g.appends) p.resolve();
    // Without a next group to overlap with, the updates run one turn of the event loop later
    // (or earlier, when someone reads). Two hops: the resolved callers' next appends schedule
    // their group in the first one, and that group applies as soon as its write is in the
    // thread pool, before the second.
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

  /** Cuts every segment the failed groups touched back to its committed size, then rejects their appends. */
  private async rollBack(): Promise<void> {
    this.applyCommitted(); // earlier groups are committed whatever happened after them
    const failure = this.failure!;
    const groups = this.rejected;
    this.rejected = [];
    const seen = new Set<string>();
    for (const g of groups) {
      for (const h of g.touched) {
        if (seen.has(h.file)) continue;
        seen.add(h.file);
        await this.files.rollback(h).catch((re: Error) => this.logger.error('rollback of a failed group failed', { file: h.file, error: re.message }));
      }
    }
    this.failure = null;
    this.broken = false;
    for (const g of groups) for (const p of g.appends) p.reject(failure);
  }
}

// The JSON Lines event store: day segments + group commit for durability, an in-memory WAF
// index and access rollups for reading, snapshots of both for a fast start. See README.md.
import fs from 'node:fs';
import path from 'node:path';
import {
  EventInputError,
  EventStoreError,
  type AnalyticsQuery,
  type EventStore,
  type EventStoreStats,
  type RetentionReport,
  type WafLogQuery,
  type WafLogResult,
} from '../event-store.js';
import { AnalyticsPeriodSchema, type Analytics, type NewAccessEntry, type NewWafEvent } from '../../../shared/schemas/events.js';
import { AccessRollups } from './access-rollups.js';
import { checkAnalyticsQuery } from './analytics-query.js';
import { AuditLog } from './audit-log.js';
import { ACCESS_LINES, WAF_LINES, checkAccessEntry, checkWafEvent, encodeLines, isBlocked, type LineFormat } from './entry-lines.js';
import { stderrLogger, type EventLogger } from './event-logger.js';
import { DEFAULT_COMMIT, GroupCommit, type GroupCommitOptions, type SegmentChunk } from './group-commit.js';
import { IdSequence } from './id-sequence.js';
import { snapshotPath, writeAccessSnapshot, writeWafSnapshot, type Coverage } from './index-snapshot.js';
import { recoverAccess, recoverWaf, type RecoveryReport } from './recovery.js';
import { dropOldSegments } from './retention.js';
import { SegmentFiles } from './segment-files.js';
import { dayOfMs, segmentNamer, type EventKind } from './segment-names.js';
import { prefixFingerprint } from './segment-reader.js';
import type { WafIndex } from './waf-index.js';
import { searchWafLogs } from './waf-search.js';
import { findRequestEvents, REQUEST_ID_RE, type RequestEvents, type RequestKey } from './request-lookup.js';
import { requestSearchPage } from './request-search.js';
import { topList, type TopListQuery } from './top-lists.js';
import { TOP_KINDS, TOP_LIMIT_MAX, type TopList } from '../../../shared/schemas/top-lists.js';
import { SnapshotDamageError } from './snapshot-damage.js';
import { WriteHealth } from '../write-health.js';
import type { WriteFailure } from '../../../shared/schemas/admin.js';
import type { SpillOptions } from './chunk-spill.js';

export interface JsonlEventStoreOptions {
  /** The events directory (`<data>/events`); created if missing. */
  dir: string;
  /** Whole UTC days kept before today (default 90). */
  retentionDays?: number;
  /** Milliseconds since the epoch; injectable so tests and benchmarks fix "now". */
  clock?: () => number;
  logger?: EventLogger;
  /** Every committed WAF event is also appended to this file (one JSON line each). */
  auditLogPath?: string;
  /** Snapshot of the index when something changed, at most this often (default 5 min; 0: only on close). */
  snapshotEveryMs?: number;
  /** Retention sweep interval (default 1 h; 0: only when applyRetention is called). */
  retentionEveryMs?: number;
  /** Group commit pipeline (default DEFAULT_COMMIT: 2 groups in flight, a group starts at 192 KiB queued when none is in flight). */
  commit?: Partial<GroupCommitOptions>;
  /**
   * Memory of the WAF index (README: "Memory under a flood"): sealed per-event chunks kept
   * in memory (default 64 MiB) and the cache of spilled chunks read back (default 16 MiB).
   * `false`: everything in memory, unbounded (the behaviour before the index could spill).
   */
  indexMemory?: { residentBytes?: number; cacheBytes?: number } | false;
}

export const DEFAULT_INDEX_RESIDENT_BYTES = 64 * 1024 * 1024;
/** Heap pressure shrinks the resident budget no further than this: a query's walk needs some chunks in memory. */
export const MIN_INDEX_RESIDENT_BYTES = 4 * 1024 * 1024;
export const DEFAULT_INDEX_CACHE_BYTES = 16 * 1024 * 1024;

export interface OpenReport {
  waf: RecoveryReport;
  access: RecoveryReport;
}

export class JsonlEventStore implements EventStore {
  private closed = false;
  private dirty = false;
  private snapshotting: Promise<void> | null = null;
  private readonly timers: NodeJS.Timeout[] = [];
  private invalidLines: number;
  private readonly segmentName = { waf: segmentNamer('waf'), access: segmentNamer('access') };
  private tornBytes: number;
  /**
   * Kinds whose index met damage in its snapshot and waits for its rebuild from the segments
   * (README: "A damaged snapshot heals"). Meanwhile their index updates are skipped (the
   * rebuild reads those entries), their reads wait for the rebuild, no snapshot is written.
   */
  private readonly damaged = new Set<EventKind>();
  private readonly healing = new Map<EventKind, Promise<void>>();
  /** The WAF snapshot was skipped because the index is too large to copy (logged once per store). */
  private snapshotSkipLogged = false;
  /** Whether appends reach the disk now (`wafctl daemon status`). */
  private readonly writeHealth: WriteHealth;

  private constructor(
    private readonly opts: Required<Omit<JsonlEventStoreOptions, 'auditLogPath' | 'commit' | 'indexMemory'>> & { spill?: SpillOptions },
    private readonly indexDir: string,
    private wafIndex: WafIndex,
    private rollups: AccessRollups,
    private readonly files: SegmentFiles,
    private readonly ids: IdSequence,
    private readonly commit: GroupCommit,
    private readonly audit: AuditLog | null,
    readonly openReport: OpenReport,
  ) {
    this.invalidLines = openReport.waf.invalidLines + openReport.access.invalidLines;
    this.tornBytes = openReport.waf.tornBytesCut + openReport.access.tornBytesCut;
    this.writeHealth = new WriteHealth(opts.dir, opts.clock);
  }

  static async open(options: JsonlEventStoreOptions): Promise<JsonlEventStore> {
    const opts = {
      dir: options.dir,
      retentionDays: options.retentionDays ?? 90,
      clock: options.clock ?? Date.now,
      logger: options.logger ?? stderrLogger,
      snapshotEveryMs: options.snapshotEveryMs ?? 300_000,
      retentionEveryMs: options.retentionEveryMs ?? 3_600_000,
      spill: spillOptionsOf(options),
    };
    if (!Number.isInteger(opts.retentionDays) || opts.retentionDays < 1) throw new EventInputError('retentionDays must be an integer >= 1', -1);
    const commitOpts = { ...DEFAULT_COMMIT, ...options.commit };
    if (!Number.isInteger(commitOpts.depth) || commitOpts.depth < 1 || commitOpts.depth > 8) throw new EventInputError('commit.depth must be an integer from 1 to 8', -1);
    if (!(commitOpts.startBytes > 0)) throw new EventInputError('commit.startBytes must be a positive number', -1);
    const indexDir = path.join(opts.dir, 'index');
    try {
      fs.mkdirSync(indexDir, { recursive: true, mode: 0o700 });
    } catch (err) {
      throw new EventStoreError(`cannot create the event directory ${indexDir}: ${(err as Error).message}`, { cause: err });
    }
    // Temp files of snapshots a killed process did not finish.
    for (const f of fs.readdirSync(indexDir)) if (/\.tmp(-\d+)?$/.test(f)) fs.rmSync(path.join(indexDir, f), { force: true });
    const waf = recoverWaf(opts.dir, indexDir, opts.logger, true, opts.spill);
    const access = recoverAccess(opts.dir, indexDir, opts.logger);
    const files = new SegmentFiles(opts.dir, commitOpts.depth);
    for (const [f, n] of [...waf.sizes, ...access.sizes]) files.committed.set(f, n);
    const ids = IdSequence.open(indexDir, Math.max(waf.report.maxId, access.maxId));
    // Opened now: a refused audit log stops the start (nothing above holds a descriptor).
    const audit = options.auditLogPath ? await AuditLog.open(options.auditLogPath, opts.logger) : null;
    const commit = new GroupCommit(files, ids, audit, opts.logger, commitOpts);
    const store = new JsonlEventStore(opts, indexDir, waf.index, access.rollups, files, ids, commit, audit, { waf: waf.report, access: access.report });
    // A snapshot that no longer matches the segments costs every start the same work again
    // (reading many entries, or re-filtering the whole index for a day that is gone): refresh it.
    const stale = (r: RecoveryReport): boolean => r.reread.length > 0 || r.dropped.length > 0;
    if (waf.report.entriesRead + access.report.entriesRead > 100_000 || stale(waf.report) || stale(access.report)) {
      store.dirty = true;
      void store.snapshot();
    }
    store.warm = store.unpackInBackground();
    if (opts.snapshotEveryMs > 0) store.every(opts.snapshotEveryMs, () => (store.dirty ? store.snapshot() : undefined));
    if (opts.retentionEveryMs > 0) store.every(opts.retentionEveryMs, () => store.applyRetention().then(() => undefined));
    return store;
  }

  /**
   * Resolves when every site the open left packed is unpacked (or the store closed). The
   * open returns with sites packed (README: "Open"); they are unpacked one per event-loop
   * turn after it, so that queries and appends arriving meanwhile wait for one site at
   * most. A benchmark of steady-state appends or queries awaits this first.
   */
  warm: Promise<void> = Promise.resolve();

  private unpackInBackground(): Promise<void> {
    return new Promise((resolve) => {
      const step = (): void => {
        try {
          if (this.closed || !(this.wafIndex.unpackNext() || this.rollups.unpackNext())) return resolve();
        } catch (err) {
          if (!(err instanceof SnapshotDamageError)) {
            this.opts.logger.error('index snapshot: a site could not be unpacked', { error: (err as Error).message });
            return resolve();
          }
          // Damage found early counts as first use: that kind is rebuilt, then the warm-up goes on
          // (the rebuilt index has nothing packed; the other kind may still have).
          return void this.healOf(err).then(() => setImmediate(step), resolve);
        }
        setImmediate(step);
      };
      setImmediate(step);
    });
  }

  appendWafEvents(events: readonly NewWafEvent[]): Promise<number[]> {
    return this.append('waf', events, checkWafEvent, WAF_LINES, wafTimeMs, this.indexWaf);
  }

  appendAccessEntries(entries: readonly NewAccessEntry[]): Promise<number[]> {
    return this.append('access', entries, checkAccessEntry, ACCESS_LINES, accessTimeMs, this.indexAccess);
  }

  private readonly indexWaf = (id: number, e: NewWafEvent): void => {
    if (!this.damaged.has('waf')) {
      try {
        return this.wafIndex.addWithId(id, e);
      } catch (err) {
        if (!(err instanceof SnapshotDamageError)) throw err;
        this.markDamaged(err);
      }
    }
    // The rebuild reads this committed entry from its segment; counted now so stats() stays exact.
    this.wafIndex.count++;
  };

  private readonly indexAccess = (id: number, e: NewAccessEntry): void => {
    if (!this.damaged.has('access')) {
      try {
        return this.rollups.add(e.site_id, e.timestamp, e.client_ip, isBlocked(e), id);
      } catch (err) {
        if (!(err instanceof SnapshotDamageError)) throw err;
        this.markDamaged(err);
      }
    }
  };

  /**
   * Damage in `err.kind`'s snapshot, found by a read, an index update or the warm-up: logged
   * once, and that kind's index is rebuilt from the segments as an exclusive job (nothing in
   * flight, so the segments hold exactly the committed entries); appends queued behind it
   * update the rebuilt index.
   */
  private markDamaged(err: SnapshotDamageError): void {
    const kind = err.kind;
    if (this.damaged.has(kind)) return;
    this.damaged.add(kind);
    this.opts.logger.error('index snapshot damaged, rebuilding the index from the segments', { file: snapshotPath(this.indexDir, kind), error: err.message });
    this.startHeal(kind);
  }

  /** The running rebuild of a damaged kind; a failed one is started again (the next read retries it). */
  private healOf(damage: SnapshotDamageError | EventKind): Promise<void> {
    const kind = typeof damage === 'string' ? damage : damage.kind;
    if (typeof damage !== 'string') this.markDamaged(damage);
    if (!this.healing.has(kind)) this.startHeal(kind);
    return this.healing.get(kind)!;
  }

  private startHeal(kind: EventKind): void {
    const job = this.commit.exclusive(async () => {
      this.commit.applyCommitted();
      if (this.damaged.has(kind)) this.rebuild(kind); // retention may have rebuilt it already
    });
    const tracked = job.finally(() => this.healing.delete(kind));
    // A failed rebuild is logged, and reported to the reads that wait for it; never an unhandled rejection.
    tracked.catch(() => undefined);
    this.healing.set(kind, tracked);
  }

  /** `kind`'s index from its segments alone (synchronous: run with nothing in flight). */
  private rebuild(kind: EventKind): void {
    const started = performance.now();
    let entries: number;
    try {
      if (kind === 'waf') {
        const r = recoverWaf(this.opts.dir, this.indexDir, this.opts.logger, false, this.opts.spill);
        this.wafIndex.release();
        this.wafIndex = r.index;
        entries = r.report.entriesRead;
      } else {
        const r = recoverAccess(this.opts.dir, this.indexDir, this.opts.logger, false);
        this.rollups = r.rollups;
        entries = r.report.entriesRead;
      }
    } catch (err) {
      this.opts.logger.error('index rebuild failed (the next read retries it)', { kind, error: (err as Error).message });
      throw new EventStoreError(`the ${kind} index is being rebuilt and the rebuild failed: ${(err as Error).message}`, { cause: err });
    }
    this.damaged.delete(kind);
    this.opts.logger.warn('index rebuilt from the segments', { kind, entries, ms: Math.round(performance.now() - started) });
    // A fresh snapshot, so that the next start does not meet the damage again.
    this.dirty = true;
    if (!this.closed) void (this.snapshotting ?? Promise.resolve()).then(() => this.snapshot());
  }

  /**
   * Runs a read of `kind`'s index, exact whatever the snapshot held: a read that meets damage
   * waits for the rebuild and runs again (the rebuilt index has nothing packed).
   */
  private async readIndex<T>(kind: EventKind, answer: () => T): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      if (this.damaged.has(kind)) await this.healOf(kind);
      this.commit.applyCommitted();
      if (this.damaged.has(kind)) continue; // an update just met damage: wait for that rebuild
      try {
        return answer();
      } catch (err) {
        if (!(err instanceof SnapshotDamageError) || attempt > 2) throw err;
        this.markDamaged(err);
      }
    }
  }

  private append<T>(
    kind: EventKind,
    entries: readonly T[],
    check: (e: unknown, i: number) => void,
    format: LineFormat<T>,
    timeMs: (e: T) => number,
    index: (id: number, e: T) => void,
  ): Promise<number[]> {
    if (this.closed) return Promise.reject(new EventStoreError('event store is closed'));
    if (!Array.isArray(entries)) return Promise.reject(new EventInputError('entries must be an array', -1));
    const n = entries.length;
    if (n === 0) return Promise.resolve([]);
    try {
      for (let i = 0; i < n; i++) check(entries[i], i);
    } catch (err) {
      return Promise.reject(err);
    }
    const first = this.ids.peek();
    const ids = new Array<number>(n);
    for (let i = 0; i < n; i++) ids[i] = first + i;
    let chunks: SegmentChunk[];
    let audit: Buffer | null = null;
    try {
      chunks = this.encode(kind, ids, entries, format, timeMs);
      if (kind === 'waf' && this.audit) audit = chunks.length === 1 ? chunks[0].data : encodeLines(ids, entries, format);
    } catch (err) {
      // Fields the checks do not look at can still defeat JSON (a BigInt, a cycle).
      return Promise.reject(new EventInputError(`entries cannot be stored as JSON: ${(err as Error).message}`, -1));
    }
    this.ids.take(n);
    return new Promise<number[]>((resolve, reject) => {
      this.commit.submit({
        chunks,
        lastId: first + n - 1,
        audit,
        apply: () => {
          for (let i = 0; i < n; i++) index(first + i, entries[i]);
          this.dirty = true;
        },
        resolve: () => {
          this.writeHealth.succeeded();
          resolve(ids);
        },
        reject: (err: Error) => {
          this.writeHealth.failed(err);
          reject(err);
        },
      });
    });
  }

  /** The lines of one append, one chunk per day segment (almost always just one). */
  private encode<T>(kind: EventKind, ids: number[], entries: readonly T[], format: LineFormat<T>, timeMs: (e: T) => number): SegmentChunk[] {
    const name = this.segmentName[kind];
    const n = entries.length;
    const day0 = dayOfMs(timeMs(entries[0]));
    let i = 1;
    while (i < n && dayOfMs(timeMs(entries[i])) === day0) i++;
    if (i === n) return [{ file: name(day0), data: encodeLines(ids, entries, format) }];
    const byDay = new Map<number, { ids: number[]; entries: T[] }>();
    for (let j = 0; j < n; j++) {
      const day = dayOfMs(timeMs(entries[j]));
      let g = byDay.get(day);
      if (!g) byDay.set(day, (g = { ids: [], entries: [] }));
      g.ids.push(ids[j]);
      g.entries.push(entries[j]);
    }
    return [...byDay].map(([day, g]) => ({ file: name(day), data: encodeLines(g.ids, g.entries, format) }));
  }

  async searchWafLogs(query: WafLogQuery): Promise<WafLogResult> {
    const term = query.search?.trim() ?? '';
    if (!REQUEST_ID_RE.test(term)) return this.readIndex('waf', () => searchWafLogs(this.wafIndex, query));
    // Checks the query and fixes the snapshot cursor the way any other search does.
    const { as_of_id: asOf } = await this.readIndex('waf', () => searchWafLogs(this.wafIndex, { ...query, search: undefined, page: 1, per_page: 1 }));
    const { events } = await this.wafRequest(query.site_id, { request_id: term });
    return requestSearchPage(events, query, asOf);
  }

  /**
   * The segments as a spool (cluster mode's shipper, daemon/cluster/events): the directory and the
   * committed bytes of every segment, live. Committed sizes only grow (retention removes whole
   * segments), and groups are acknowledged in id order, so what is committed is every id up to one.
   */
  spool(): { dir: string; committed: () => ReadonlyMap<string, number> } {
    return { dir: this.opts.dir, committed: () => this.files.committed };
  }

  wafRequest(siteId: number, key: RequestKey): Promise<RequestEvents> {
    this.commit.applyCommitted();
    return findRequestEvents(this.opts.dir, this.files.committed, siteId, key);
  }

  async analytics(query: AnalyticsQuery): Promise<Analytics> {
    const q = checkAnalyticsQuery(query, this.opts.clock);
    return this.readIndex('access', () => this.rollups.analytics(q.site_id, q.period, q.now));
  }

  async topList(query: TopListQuery): Promise<TopList> {
    const period = AnalyticsPeriodSchema.safeParse(query.period);
    if (!period.success) throw new EventInputError('period must be one of 24h, 7d, 30d, 90d', -1);
    if (!TOP_KINDS.includes(query.kind)) throw new EventInputError(`kind must be one of ${TOP_KINDS.join(', ')}`, -1);
    if (!Number.isSafeInteger(query.limit) || query.limit < 1 || query.limit > TOP_LIMIT_MAX) throw new EventInputError(`limit must be 1 to ${TOP_LIMIT_MAX}`, -1);
    if (!Number.isSafeInteger(query.site_id) || query.site_id < 0) throw new EventInputError('site_id must be a non-negative integer', -1);
    const now = query.now ?? this.opts.clock();
    if (!Number.isFinite(now)) throw new EventInputError('now must be a number (ms since the epoch)', -1);
    if (this.closed) throw new EventStoreError('event store is closed');
    this.commit.applyCommitted();
    return topList(this.opts.dir, this.files.committed, query, now);
  }

  applyRetention(now = this.opts.clock()): Promise<RetentionReport> {
    if (this.closed) return Promise.reject(new EventStoreError('event store is closed'));
    return this.commit.exclusive(async () => {
      this.commit.applyCommitted();
      const report = await dropOldSegments(this.opts.dir, this.files, dayOfMs(now) - this.opts.retentionDays, this.opts.logger);
      if (report.deleted.length === 0) return report;
      const keep = (d: number): boolean => d >= dayOfMs(now) - this.opts.retentionDays;
      // A damaged index is rebuilt from the segments left (those days are gone from them already).
      this.healOr('waf', () => {
        if (!report.deleted.some((f) => f.startsWith('waf-'))) return;
        const next = this.wafIndex.filtered(keep);
        this.wafIndex.release();
        this.wafIndex = next;
      });
      this.healOr('access', () => this.rollups.keepDays(keep));
      this.dirty = true;
      // A snapshot that still lists the deleted segments would cost the next start a rebuild.
      void this.snapshot();
      return report;
    });
  }

  /** Runs `job` on `kind`'s index, or rebuilds that index if it is (or turns out) damaged. Inside an exclusive job only. */
  private healOr(kind: EventKind, job: () => void): void {
    if (!this.damaged.has(kind)) {
      try {
        return job();
      } catch (err) {
        if (!(err instanceof SnapshotDamageError)) throw err;
        this.markDamaged(err);
      }
    }
    this.rebuild(kind);
  }

  /** The failing writes of the moment (a full disk, a permission), or null when appends reach the disk. */
  writeFailure(): WriteFailure | null {
    return this.writeHealth.state();
  }

  /** The highest id of a WAF event in the store (0 when none): what a shipper has to reach. */
  lastWafEventId(): number {
    this.commit.applyCommitted();
    return this.wafIndex.maxId;
  }

  /** The highest id of an access entry in the store (0 when none): what the access shipper has to reach. */
  lastAccessEntryId(): number {
    this.commit.applyCommitted();
    return this.rollups.maxId;
  }

  stats(): EventStoreStats {
    this.commit.applyCommitted();
    return { waf_events: this.wafIndex.count, invalid_lines: this.invalidLines, torn_bytes_cut: this.tornBytes, last_id: this.ids.last };
  }

  /** Writes both index snapshots (a consistent cut taken synchronously, written in the background). */
  snapshot(): Promise<void> {
    if (this.snapshotting) return this.snapshotting;
    this.commit.applyCommitted();
    // A damaged index misses entries until its rebuild, which writes the snapshot itself.
    if (this.damaged.size > 0) return Promise.resolve();
    this.dirty = false;
    const coverage = (kind: EventKind): Coverage => {
      const c: Coverage = {};
      for (const [file, size] of this.files.committed) {
        if (!file.startsWith(`${kind}-`)) continue;
        c[file] = { size, fp: prefixFingerprint(path.join(this.opts.dir, file), size) };
      }
      return c;
    };
    let job: Promise<void>;
    try {
      const waf = this.wafSnapshotFits() ? this.wafIndex.snapshot() : null;
      const access = this.rollups.snapshot();
      const accessMaxId = this.rollups.maxId;
      const wafCov = coverage('waf');
      const accessCov = coverage('access');
      job = (async () => {
        if (waf) await writeWafSnapshot(snapshotPath(this.indexDir, 'waf'), waf, wafCov);
        await writeAccessSnapshot(snapshotPath(this.indexDir, 'access'), access, accessCov, accessMaxId);
      })();
    } catch (err) {
      job = Promise.reject(err);
    }
    this.snapshotting = job
      .catch((err: Error) => {
        this.dirty = true;
        this.opts.logger.error('index snapshot failed (start-up will read more segments)', { error: err.message });
      })
      .finally(() => {
        this.snapshotting = null;
      });
    return this.snapshotting;
  }

  /**
   * A snapshot copies the whole index at once (README: "Index persistence"): once the index has
   * spilled more than its memory budget again, that copy would undo the bound, so the WAF
   * snapshot is skipped (logged once) and the next start reads the segments after the last
   * snapshot instead (into a bounded index: slower, not larger).
   */
  private wafSnapshotFits(): boolean {
    const spill = this.wafIndex.spill;
    if (spill === null || spill.spilledBytes <= spill.options.residentBytes) return true;
    if (!this.snapshotSkipLogged) {
      this.snapshotSkipLogged = true;
      this.opts.logger.warn('WAF index snapshot skipped: the index is larger than twice its memory budget (the next start reads the segments after the last snapshot)', {
        resident_bytes: spill.residentBytes, spilled_bytes: spill.spilledBytes,
      });
    }
    return false;
  }

  /** Memory of the WAF index: sealed chunk bytes in memory and in the spill file. */
  indexMemoryStats(): { resident_bytes: number; spilled_bytes: number; spilled_chunks: number } {
    this.commit.applyCommitted();
    const s = this.wafIndex.spill;
    return { resident_bytes: s?.residentBytes ?? 0, spilled_bytes: s?.spilledBytes ?? 0, spilled_chunks: s?.spilledChunks ?? 0 };
  }

  /**
   * Heap pressure (daemon/lifecycle/heap-pressure.ts): halves the index's resident budget, down to
   * MIN_INDEX_RESIDENT_BYTES, spilling at once. Null when there is nothing left to give (no spill,
   * or already at the floor). The smaller budget holds until a restart: pressure seldom passes.
   */
  shrinkIndexMemory(): { from_bytes: number; to_bytes: number } | null {
    const spill = this.wafIndex.spill;
    if (spill === null || spill.options.residentBytes <= MIN_INDEX_RESIDENT_BYTES) return null;
    const from = spill.options.residentBytes;
    const to = Math.max(MIN_INDEX_RESIDENT_BYTES, Math.floor(from / 2));
    // Applied before the index is released and recovered again: `this.opts.spill` is the same object.
    spill.setResidentBudget(to);
    return { from_bytes: from, to_bytes: to };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    await this.commit.drain();
    this.commit.applyCommitted();
    // Damage met by those last updates: rebuilt before the final snapshot.
    for (const kind of [...this.damaged]) await this.healOf(kind).catch(() => undefined);
    while (this.snapshotting) await this.snapshotting;
    if (this.dirty) await this.snapshot();
    await this.ids.settle().catch((err: Error) => this.opts.logger.warn('could not store the last id (the next start skips ahead)', { error: err.message }));
    this.files.closeAll();
    this.audit?.close();
    this.wafIndex.release();
  }

  private every(ms: number, job: () => Promise<unknown> | undefined): void {
    const t = setInterval(() => {
      if (this.closed) return;
      void Promise.resolve(job()).catch((err: Error) => this.opts.logger.error('background job failed', { error: err.message }));
    }, ms);
    t.unref();
    this.timers.push(t);
  }
}

function spillOptionsOf(options: JsonlEventStoreOptions): SpillOptions | undefined {
  if (options.indexMemory === false) return undefined;
  const residentBytes = options.indexMemory?.residentBytes ?? DEFAULT_INDEX_RESIDENT_BYTES;
  const cacheBytes = options.indexMemory?.cacheBytes ?? DEFAULT_INDEX_CACHE_BYTES;
  if (!(residentBytes >= 0) || !(cacheBytes >= 0)) throw new EventInputError('indexMemory budgets must be numbers >= 0', -1);
  return { dir: path.join(options.dir, 'index'), residentBytes, cacheBytes };
}

const wafTimeMs = (e: NewWafEvent): number => e.timestamp_ms;
const accessTimeMs = (e: NewAccessEntry): number => e.timestamp * 1000;

export const openJsonlEventStore = (options: JsonlEventStoreOptions): Promise<JsonlEventStore> => JsonlEventStore.open(options);

// Open-time recovery of one kind of segments: cut torn tails (logged with the byte count),
// load the index snapshot, and read only what it does not cover: the tail appended after
// it, or a whole segment whose covered bytes changed (hand edit), dropping days whose
// segment disappeared. Invalid lines are skipped, counted and logged.
import path from 'node:path';
import type { EventLogger } from './event-logger.js';
import { endsFingerprint, readSegmentEnds, readSegmentLines, type SegmentEnds } from './segment-reader.js';
import { listSegments, type EventKind, type SegmentRef } from './segment-names.js';
import { readAccessSnapshot, readWafSnapshot, snapshotPath, type Coverage } from './index-snapshot.js';
import { WafIndex, type WafIndexEntry } from './waf-index.js';
import type { SpillOptions } from './chunk-spill.js';
import { AccessRollups } from './access-rollups.js';
import { accessEntryProblem, toWafIndexEntry, wafEntryProblem, type AccessRollupEntry } from './stored-entry.js';

export interface RecoveryReport {
  tornBytesCut: number;
  invalidLines: number;
  /** Entries read from segments (not from the snapshot). */
  entriesRead: number;
  usedSnapshot: boolean;
  /** Segments read whole because the snapshot did not match them. */
  reread: string[];
  /** Segments the snapshot covered that are gone: their days were dropped from the index. */
  dropped: string[];
  /** Highest id found in this kind's segments. */
  maxId: number;
}

interface Plan {
  reads: { ref: SegmentRef; from: number; whole: boolean }[];
  dropDays: Set<number>;
  sizes: Map<string, number>;
}

const LOGGED_INVALID_PER_SEGMENT = 5;

interface ScannedSegment {
  ref: SegmentRef;
  ends: SegmentEnds;
}

/** Every segment of a kind, torn tail cut (logged) and its ends read: the part of open that needs no snapshot. */
function scanSegments(dir: string, kind: EventKind, logger: EventLogger, report: RecoveryReport): ScannedSegment[] {
  return listSegments(dir, kind).map((ref) => {
    const ends = readSegmentEnds(path.join(dir, ref.file));
    if (ends.cut > 0) {
      report.tornBytesCut += ends.cut;
      logger.warn('torn last line cut from segment', { file: ref.file, bytes: ends.cut });
    }
    return { ref, ends };
  });
}

function plan(dir: string, scanned: ScannedSegment[], coverage: Coverage | null, logger: EventLogger, report: RecoveryReport): Plan {
  const p: Plan = { reads: [], dropDays: new Set(), sizes: new Map() };
  const present = new Set<string>();
  for (const { ref, ends } of scanned) {
    const full = path.join(dir, ref.file);
    present.add(ref.file);
    const size = ends.size;
    p.sizes.set(ref.file, size);
    const c = coverage?.[ref.file];
    if (!coverage || !c) p.reads.push({ ref, from: 0, whole: !coverage });
    else if (size >= c.size && endsFingerprint(full, ends, c.size) === c.fp) {
      if (size > c.size) p.reads.push({ ref, from: c.size, whole: false });
    } else {
      p.reads.push({ ref, from: 0, whole: true });
      p.dropDays.add(ref.day);
      report.reread.push(ref.file);
    }
  }
  for (const file of Object.keys(coverage ?? {})) {
    if (present.has(file)) continue;
    const day = listDay(file);
    if (day !== null) p.dropDays.add(day);
    report.dropped.push(file);
    logger.info('segment covered by the index snapshot is gone: its day leaves the index', { file });
  }
  return p;
}

function listDay(file: string): number | null {
  const m = /-(\d{4})-(\d{2})-(\d{2})\.jsonl$/.exec(file);
  return m ? Math.floor(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 86_400_000) : null;
}

function readAll(
  dir: string,
  p: Plan,
  problem: (v: unknown, day: number) => string | null,
  onEntry: (v: unknown, whole: boolean) => void,
  logger: EventLogger,
  report: RecoveryReport,
): void {
  for (const { ref, from, whole } of p.reads) {
    let bad = 0;
    readSegmentLines(
      path.join(dir, ref.file),
      from,
      (v) => {
        const why = problem(v, ref.day);
        if (why === null) {
          onEntry(v, whole);
          report.entriesRead++;
        }
        return why;
      },
      (inv) => {
        bad++;
        if (bad <= LOGGED_INVALID_PER_SEGMENT) logger.warn('invalid segment line skipped', { file: ref.file, offset: inv.offset, reason: inv.reason });
      },
    );
    if (bad > LOGGED_INVALID_PER_SEGMENT) logger.warn('invalid segment lines skipped', { file: ref.file, count: bad });
    report.invalidLines += bad;
  }
}

const newReport = (): RecoveryReport => ({ tornBytesCut: 0, invalidLines: 0, entriesRead: 0, usedSnapshot: false, reread: [], dropped: [], maxId: 0 });

function loadSnapshot<T>(read: () => T | null, logger: EventLogger, file: string): T | null {
  try {
    return read();
  } catch (err) {
    logger.warn('index snapshot unreadable, rebuilding from segments', { file, error: (err as Error).message });
    return null;
  }
}

/**
 * `useSnapshot` false: everything from the segments (a snapshot found damaged after the open).
 * `spill`: the index's memory budget (chunk-spill.ts), so a rebuild of millions of events stays within it too.
 */
export function recoverWaf(
  dir: string,
  indexDir: string,
  logger: EventLogger,
  useSnapshot = true,
  spill?: SpillOptions,
): { index: WafIndex; sizes: Map<string, number>; report: RecoveryReport } {
  const report = newReport();
  const snapFile = snapshotPath(indexDir, 'waf');
  // The restore is inside the guard too: a snapshot whose parts do not fit together is as unreadable as a garbled one.
  const loaded = !useSnapshot ? null : loadSnapshot(
    () => {
      const s = readWafSnapshot(snapFile);
      return s && { coverage: s.coverage, index: WafIndex.restore(s.snap, spill) };
    },
    logger,
    snapFile,
  );
  const scanned = scanSegments(dir, 'waf', logger, report);
  report.usedSnapshot = loaded !== null;
  const p = plan(dir, scanned, loaded?.coverage ?? null, logger, report);
  let index = loaded ? loaded.index : new WafIndex(spill);
  const replace = (next: WafIndex): void => {
    index.release();
    index = next;
  };
  if (p.dropDays.size) replace(index.filtered((d) => !p.dropDays.has(d)));
  // Whole segments stream straight into the index while ids keep rising (the usual case:
  // days were filled in order); tails (few) are sorted first; anything out of order is
  // merged in by one rebuild at the end.
  const tail: WafIndexEntry[] = [];
  const late: WafIndexEntry[] = [];
  const addOrDefer = (e: WafIndexEntry): void => {
    if (e.id > index.maxId) index.add(e);
    else late.push(e);
  };
  // A single tail (the usual case: today's segment grew after the snapshot) is in id order
  // already: streamed too, so a long tail (a flood after the last snapshot) is not held as objects.
  const oneTail = p.reads.filter((r) => !r.whole).length <= 1;
  readAll(dir, p, wafEntryProblem, (v, whole) => (whole || oneTail ? addOrDefer(toWafIndexEntry(v)) : tail.push(toWafIndexEntry(v))), logger, report);
  tail.sort((a, b) => a.id - b.id);
  for (const e of tail) addOrDefer(e);
  if (late.length) replace(index.rebuilt(() => true, late));
  report.maxId = index.maxId;
  return { index, sizes: p.sizes, report };
}

export function recoverAccess(
  dir: string,
  indexDir: string,
  logger: EventLogger,
  useSnapshot = true,
): { rollups: AccessRollups; sizes: Map<string, number>; report: RecoveryReport; maxId: number } {
  const report = newReport();
  const snapFile = snapshotPath(indexDir, 'access');
  const loaded = !useSnapshot ? null : loadSnapshot(
    () => {
      const s = readAccessSnapshot(snapFile);
      return s && { coverage: s.coverage, maxId: s.maxId, rollups: AccessRollups.restore(s.sites) };
    },
    logger,
    snapFile,
  );
  const scanned = scanSegments(dir, 'access', logger, report);
  report.usedSnapshot = loaded !== null;
  const p = plan(dir, scanned, loaded?.coverage ?? null, logger, report);
  const rollups = loaded ? loaded.rollups : new AccessRollups();
  if (p.dropDays.size) rollups.keepDays((d) => !p.dropDays.has(d));
  if (loaded) rollups.maxId = loaded.maxId;
  const onEntry = (v: unknown): void => {
    const e = v as AccessRollupEntry;
    rollups.add(e.site_id, e.timestamp, e.client_ip, e.blocked, e.id);
  };
  readAll(dir, p, accessEntryProblem, onEntry, logger, report);
  const maxId = rollups.maxId;
  report.maxId = maxId;
  return { rollups, sizes: p.sizes, report, maxId };
}

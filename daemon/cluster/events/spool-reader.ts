// The shipper's view of the JSONL store as a spool: the committed entries of one kind (WAF events
// or access entries) with a local id above the cursor, in id order, in batches. Segments are per
// UTC day of event time and a late entry appends to an older day, so new entries may be in any
// segment; within one segment ids rise (the two kinds share one id sequence). Each
// segment keeps a byte offset before which everything is shipped (found by a binary search on the
// `{"id":N,` line prefix the first time, then moved forward as batches commit). Only committed
// bytes are read, and the store commits in id order, so reading every segment to its committed
// size sees every id up to the newest; a segment read only in part bounds what a batch may take.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { StoredAccessEntry, StoredWafEvent } from '../../../shared/schemas/events.js';
import { checkAccessEntry, checkWafEvent } from '../../store/events/entry-lines.js';
import { listSegments, type EventKind } from '../../store/events/segment-names.js';

export interface SpoolSource {
  dir: string;
  /** Segment file name -> committed bytes, now. */
  committed(): ReadonlyMap<string, number>;
}

/** Which segments a reader reads, and how it checks their lines. */
export interface SpoolFormat<T extends { id: number }> {
  kind: EventKind;
  /** The parsed line as an entry; throws for one the store's index would not take. */
  entry(line: Record<string, unknown>): T;
}

export const WAF_SPOOL: SpoolFormat<StoredWafEvent> = {
  kind: 'waf',
  entry: (e) => { checkWafEvent(e, 0); return e as unknown as StoredWafEvent; },
};
export const ACCESS_SPOOL: SpoolFormat<StoredAccessEntry> = {
  kind: 'access',
  entry: (e) => { checkAccessEntry(e, 0); return e as unknown as StoredAccessEntry; },
};

export interface SpoolBatch<T extends { id: number }> {
  /** In local id order. */
  entries: T[];
  /** The cursor once this batch is shipped. */
  through: number;
  /** Segment -> offset after the batch's last line in it. */
  ends: Map<string, number>;
}

const NEWLINE = 0x0a;
const ID_PREFIX = /^\{"id":(\d+),/;
/** Bytes read from all segments with a backlog, per batch: bounds memory after a long outage. */
const READ_BUDGET = 8 << 20;
const MIN_PIECE = 64 << 10;

interface Line<T> {
  /** The line's id; an invalid line takes the id before it, so it is stepped over with it. */
  id: number;
  end: number;
  entry: T | null;
}

export class SpoolReader<T extends { id: number }> {
  readonly #source: SpoolSource;
  readonly #format: SpoolFormat<T>;
  #cursor = 0;
  readonly #offsets = new Map<string, number>();

  constructor(source: SpoolSource, format: SpoolFormat<T>) {
    this.#source = source;
    this.#format = format;
  }

  get cursor(): number {
    return this.#cursor;
  }

  /** Starts again from `cursor` (after a failure: PostgreSQL's cursor is the truth). */
  reset(cursor: number): void {
    this.#cursor = cursor;
    this.#offsets.clear();
  }

  /** The next batch of at most `max` entries, or null when everything committed is shipped. */
  async next(max: number): Promise<SpoolBatch<T> | null> {
    const committed = new Map(this.#source.committed());
    const segments = listSegments(this.#source.dir, this.#format.kind).map((s) => s.file).filter((f) => (committed.get(f) ?? 0) > 0);
    for (const f of [...this.#offsets.keys()]) if (!segments.includes(f)) this.#offsets.delete(f);
    const behind: string[] = [];
    for (const file of segments) {
      let at = this.#offsets.get(file);
      if (at === undefined) this.#offsets.set(file, (at = await firstLineAfter(path.join(this.#source.dir, file), committed.get(file)!, this.#cursor)));
      if (at < committed.get(file)!) behind.push(file);
    }
    if (behind.length === 0) return null;
    const piece = Math.max(MIN_PIECE, Math.floor(READ_BUDGET / behind.length));
    let horizon = Number.MAX_SAFE_INTEGER;
    const lines = new Map<string, Line<T>[]>();
    for (const file of behind) {
      const from = this.#offsets.get(file)!;
      const size = committed.get(file)!;
      const read = await readLines(path.join(this.#source.dir, file), from, size, piece, this.#cursor, this.#format);
      lines.set(file, read.lines);
      // Ids above the last one read here may still be in this segment's unread part.
      if (read.end < size && read.lines.length > 0) horizon = Math.min(horizon, read.lines.at(-1)!.id);
    }
    const candidates: T[] = [];
    for (const list of lines.values()) for (const l of list) if (l.entry && l.id > this.#cursor && l.id <= horizon) candidates.push(l.entry);
    candidates.sort((a, b) => a.id - b.id);
    const entries = candidates.slice(0, max);
    const through = entries.length > 0 ? entries.at(-1)!.id : this.#cursor;
    const ends = new Map<string, number>();
    for (const [file, list] of lines) {
      let end = -1;
      for (const l of list) if (l.id <= through) end = l.end;
      if (end >= 0) ends.set(file, end);
    }
    if (entries.length === 0 && ends.size === 0) return null;
    return { entries, through, ends };
  }

  /** The batch is in PostgreSQL: move past it. */
  advance(batch: SpoolBatch<T>): void {
    this.#cursor = Math.max(this.#cursor, batch.through);
    for (const [file, end] of batch.ends) if (end > (this.#offsets.get(file) ?? 0)) this.#offsets.set(file, end);
  }
}

async function readLines<T extends { id: number }>(file: string, from: number, size: number, piece: number, cursor: number, format: SpoolFormat<T>): Promise<{ lines: Line<T>[]; end: number }> {
  const handle = await fs.open(file, 'r');
  try {
    let want = Math.min(piece, size - from);
    for (;;) {
      const buf = Buffer.allocUnsafe(want);
      const { bytesRead } = await handle.read(buf, 0, want, from);
      if (bytesRead === 0) return { lines: [], end: from }; // cut meanwhile (retention): nothing to read
      const data = buf.subarray(0, bytesRead);
      const last = data.lastIndexOf(NEWLINE);
      // A line longer than the piece: read more until it ends.
      if (last < 0 && from + bytesRead < size) {
        want = Math.min(want * 2, size - from);
        continue;
      }
      const lines: Line<T>[] = [];
      let prevId = cursor;
      let start = 0;
      for (let nl = data.indexOf(NEWLINE); nl >= 0 && nl <= last; nl = data.indexOf(NEWLINE, start)) {
        const entry = parseLine(data.toString('utf8', start, nl), format);
        const id = entry ? entry.id : prevId;
        prevId = id;
        lines.push({ id, end: from + nl + 1, entry });
        start = nl + 1;
      }
      return { lines, end: from + last + 1 };
    }
  } finally {
    await handle.close();
  }
}

/** A line the index would take (entry-lines.ts checks), or null: hand-edited lines are skipped as the index skips them. */
function parseLine<T extends { id: number }>(line: string, format: SpoolFormat<T>): T | null {
  try {
    const e = JSON.parse(line) as Record<string, unknown>;
    if (!Number.isSafeInteger(e.id) || (e.id as number) < 1) return null;
    return format.entry(e);
  } catch {
    return null;
  }
}

/**
 * The offset of a line start such that every line before it has an id <= cursor: a binary search
 * on line starts (ids rise within a segment), to skip what is shipped without reading it.
 */
async function firstLineAfter(file: string, size: number, cursor: number): Promise<number> {
  if (cursor <= 0) return 0;
  const handle = await fs.open(file, 'r');
  try {
    let lo = 0;
    let hi = size;
    while (hi - lo > MIN_PIECE) {
      const mid = lo + Math.floor((hi - lo) / 2);
      const start = await lineStartFrom(handle, mid, size);
      const id = start < size ? await idAt(handle, start) : null;
      // Unsure (no line, or no id prefix): search left; the reader skips ids <= cursor anyway.
      if (id !== null && id <= cursor && start < hi) lo = start;
      else hi = mid;
    }
    return lo;
  } finally {
    await handle.close();
  }
}

/** The first line start at or after `pos` (size when none). */
async function lineStartFrom(handle: fs.FileHandle, pos: number, size: number): Promise<number> {
  let at = pos - 1;
  const buf = Buffer.allocUnsafe(MIN_PIECE);
  while (at < size) {
    const { bytesRead } = await handle.read(buf, 0, Math.min(MIN_PIECE, size - at), at);
    if (bytesRead === 0) return size;
    const nl = buf.subarray(0, bytesRead).indexOf(NEWLINE);
    if (nl >= 0) return at + nl + 1;
    at += bytesRead;
  }
  return size;
}

async function idAt(handle: fs.FileHandle, start: number): Promise<number | null> {
  const buf = Buffer.alloc(32);
  const { bytesRead } = await handle.read(buf, 0, 32, start);
  const m = ID_PREFIX.exec(buf.toString('latin1', 0, bytesRead));
  return m ? Number(m[1]) : null;
}

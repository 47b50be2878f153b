// Keeps the WAF index's memory bounded (a scanner flood grew the primary by ~660 MB
// a minute). Every per-event part of the index lives in sealed, immutable chunks of 16,384
// events (column chunks in growable-array.ts, URI blobs in uri-column.ts). Once the sealed
// chunks resident in memory exceed `residentBytes`, the oldest are written to a spill file and
// dropped from the heap; a read of a spilled chunk goes through a small LRU cache
// (`cacheBytes`). So memory is bounded by the budget plus the open chunks and the per-key
// tables, whatever the number of events; queries stay exact (the same code reads the same
// bytes), only slower over spilled chunks (a read from the page cache instead of memory).
//
// The spill file is private scratch, not a durable format: it is unlinked right after it is
// created (the open descriptor keeps it), so nothing is left behind by a crash, and it dies
// with the index (release(), or the process). The segments stay the truth.
import fs from 'node:fs';
import path from 'node:path';

export interface SpillOptions {
  /** Directory for the (unlinked) spill file: the events index dir, on the same disk as the segments. */
  dir: string;
  /** Sealed chunk bytes kept in memory before the oldest are spilled. */
  residentBytes: number;
  /** Bytes of spilled chunks kept in memory after a read (LRU). */
  cacheBytes: number;
}

/** A sealed chunk the spill may take out of memory. */
export interface SpillSlot {
  /** Bytes it holds in memory. */
  readonly bytes: number;
  /** Writes its data with `spill.write` and drops it from memory. */
  spillOut(spill: ChunkSpill): void;
}

/** Where a spilled chunk's bytes are in the spill file. */
export interface SpillRef {
  offset: number;
  length: number;
}

const MIN_CACHED = 16;
let fileSeq = 0;
const closer = new FinalizationRegistry<number>((fd) => {
  try {
    fs.closeSync(fd);
  } catch {
    // already closed
  }
});

export class ChunkSpill {
  private fd = -1;
  private end = 0;
  /** Resident sealed chunks, oldest first (a ring would do; shift() on a short array is cheap). */
  private queue: SpillSlot[] = [];
  private head = 0;
  residentBytes = 0;
  spilledBytes = 0;
  spilledChunks = 0;
  private readonly cache = new Map<number, { value: unknown; bytes: number }>();
  private cachedBytes = 0;

  constructor(readonly options: SpillOptions) {}

  /** A newly sealed chunk: resident until the budget needs its room. */
  admit(slot: SpillSlot): void {
    this.queue.push(slot);
    this.residentBytes += slot.bytes;
    this.spillOverBudget();
  }

  /** A new resident budget (heap pressure): chunks over it are spilled at once. */
  setResidentBudget(bytes: number): void {
    this.options.residentBytes = bytes;
    this.spillOverBudget();
  }

  private spillOverBudget(): void {
    while (this.residentBytes > this.options.residentBytes && this.head < this.queue.length) {
      const old = this.queue[this.head++];
      this.residentBytes -= old.bytes;
      old.spillOut(this);
      this.spilledChunks++;
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }

  /** Appends `data` to the spill file (page cache; no fsync: scratch). */
  write(data: Uint8Array): SpillRef {
    if (this.fd < 0) this.openFile();
    let done = 0;
    while (done < data.byteLength) done += fs.writeSync(this.fd, data, done, data.byteLength - done, this.end + done);
    const ref = { offset: this.end, length: data.byteLength };
    this.end += data.byteLength;
    this.spilledBytes += data.byteLength;
    return ref;
  }

  /** The chunk at `ref`, decoded by `decode` on a cache miss (`bytes`: what the decoded value holds). */
  read<T>(ref: SpillRef, decode: (raw: Buffer) => T, bytes: number): T {
    const hit = this.cache.get(ref.offset);
    if (hit !== undefined) {
      // Most recently used last.
      this.cache.delete(ref.offset);
      this.cache.set(ref.offset, hit);
      return hit.value as T;
    }
    const raw = Buffer.allocUnsafeSlow(ref.length);
    let got = 0;
    while (got < ref.length) {
      const n = fs.readSync(this.fd, raw, got, ref.length - got, ref.offset + got);
      if (n === 0) throw new Error('spill file: chunk truncated');
      got += n;
    }
    const value = decode(raw);
    this.cache.set(ref.offset, { value, bytes });
    this.cachedBytes += bytes;
    for (const [k, v] of this.cache) {
      // A few chunks stay whatever the budget: a walk over all columns of a position (retention,
      // rows) reads about ten chunks in turn and would otherwise read each one again every step.
      if (this.cachedBytes <= this.options.cacheBytes || this.cache.size <= MIN_CACHED) break;
      this.cache.delete(k);
      this.cachedBytes -= v.bytes;
    }
    return value;
  }

  /** Closes and forgets the spill file (the index that used it is gone). */
  release(): void {
    if (this.fd >= 0) {
      closer.unregister(this);
      fs.closeSync(this.fd);
      this.fd = -1;
    }
    this.cache.clear();
    this.cachedBytes = 0;
    this.queue = [];
    this.head = 0;
  }

  private openFile(): void {
    const file = path.join(this.options.dir, `spill-${process.pid}-${++fileSeq}.tmp`);
    this.fd = fs.openSync(file, 'w+', 0o600);
    fs.unlinkSync(file);
    closer.register(this, this.fd, this);
  }
}

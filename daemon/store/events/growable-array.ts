// Append-only typed arrays: the columns and posting lists of the in-memory WAF index (a JS
// array of numbers would cost 2-4x the memory).
//
// Stored in chunks of 16,384 elements, not one array that doubles: a restored index adopts
// its snapshot arrays as chunk views (no copy), and a push never copies more than one
// partial chunk. One doubling array made the first append after an open copy every column
// of the site into one twice its size (~44 MB written and page-faulted for 1M events,
// ~1.6 us per row of a 100,000-row append) and kept the spare half resident.

import type { ChunkSpill, SpillRef, SpillSlot } from './chunk-spill.js';

type TypedCtor<T> = { new (n: number): T };

const CHUNK_BITS = 14;
const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;

/**
 * A full chunk as the spill sees it (chunk-spill.ts): a full chunk never changes again
 * (columns and prev links are push-only), so it can leave memory and be read back.
 */
class FullChunk implements SpillSlot {
  constructor(
    private readonly owner: Growable<Float64Array | Uint32Array>,
    private readonly c: number,
    readonly bytes: number,
  ) {}
  spillOut(spill: ChunkSpill): void {
    this.owner.spillChunk(this.c, spill);
  }
}

abstract class Growable<T extends Float64Array | Uint32Array> {
  length = 0;
  /**
   * Chunk c holds elements [c * CHUNK, c * CHUNK + chunk.length); only the last may be short.
   * null: spilled (its bytes at refs[c] in the spill file).
   */
  protected chunks: (T | null)[] = [];
  private refs: SpillRef[] | null = null;
  /** Set only for push-only arrays (set() would change a chunk that may be spilled). */
  protected spill: ChunkSpill | null = null;
  constructor(
    private readonly ctor: TypedCtor<T>,
    private readonly firstCapacity: number,
    private readonly view: (raw: Buffer) => T,
  ) {}
  push(v: number): void {
    const i = this.length;
    const c = i >>> CHUNK_BITS;
    let ch = this.chunks[c];
    if (ch === undefined || ch === null || (i & MASK) === ch.length) ch = this.extend(c);
    ch[i & MASK] = v;
    this.length = i + 1;
    if ((i & MASK) === MASK && this.spill !== null) this.spill.admit(new FullChunk(this, c, ch.byteLength));
  }
  get(i: number): number {
    const ch = this.chunks[i >>> CHUNK_BITS];
    return (ch !== null ? ch : this.load(i >>> CHUNK_BITS))[i & MASK];
  }
  set(i: number, v: number): void {
    this.chunks[i >>> CHUNK_BITS]![i & MASK] = v;
  }
  /** A copy of the filled part (spilled chunks read back). */
  copy(): T {
    const out = new this.ctor(this.length);
    for (let c = 0; c < this.chunks.length; c++) {
      const from = c << CHUNK_BITS;
      out.set(this.chunk(c).subarray(0, Math.min(CHUNK, this.length - from)), from);
    }
    return out;
  }
  /** Called by the spill: writes full chunk c to it and drops it from memory. */
  spillChunk(c: number, spill: ChunkSpill): void {
    const ch = this.chunks[c];
    if (ch === null || ch === undefined) return;
    (this.refs ??= [])[c] = spill.write(new Uint8Array(ch.buffer, ch.byteOffset, ch.byteLength));
    this.chunks[c] = null;
  }
  /** Takes `values` as the filled part: chunk views over it, no copy. */
  protected adopt(values: T, spill: ChunkSpill | null = null): this {
    for (let from = 0; from < values.length; from += CHUNK) this.chunks.push(values.subarray(from, Math.min(values.length, from + CHUNK)) as T);
    this.length = values.length;
    this.spill = spill;
    if (spill !== null) {
      for (let c = 0; c < this.chunks.length; c++) if (this.chunks[c]!.length === CHUNK) spill.admit(new FullChunk(this, c, this.chunks[c]!.byteLength));
    }
    return this;
  }
  private chunk(c: number): T {
    return this.chunks[c] ?? this.load(c);
  }
  private load(c: number): T {
    return this.spill!.read(this.refs![c], this.view, CHUNK * (this.ctor as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT);
  }
  /** Room for the next element of chunk c: a new chunk, or a short last chunk made longer. */
  private extend(c: number): T {
    const old = this.chunks[c] ?? undefined;
    // A lone first chunk doubles (small sites stay small); later chunks are full size at once.
    const size = old === undefined ? (c === 0 ? Math.max(4, this.firstCapacity) : CHUNK) : Math.min(CHUNK, Math.max(4, old.length * 2));
    const next = new this.ctor(size);
    if (old !== undefined) next.set(old);
    this.chunks[c] = next;
    return next;
  }
}

const f64View = (raw: Buffer): Float64Array => new Float64Array(raw.buffer, raw.byteOffset, raw.byteLength / 8);
const u32View = (raw: Buffer): Uint32Array => new Uint32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);

export class GrowableF64 extends Growable<Float64Array> {
  /** `spill`: full chunks may leave memory (push-only arrays only). */
  constructor(capacity = 16, spill: ChunkSpill | null = null) {
    super(Float64Array, capacity, f64View);
    this.spill = spill;
  }
  /** Adopts `values` as the filled part (no copy; later pushes go to new chunks). */
  static from(values: Float64Array, spill: ChunkSpill | null = null): GrowableF64 {
    return new GrowableF64(0).adopt(values, spill);
  }
}

export class GrowableU32 extends Growable<Uint32Array> {
  /** `spill`: full chunks may leave memory (push-only arrays only: never set()). */
  constructor(capacity = 4, spill: ChunkSpill | null = null) {
    super(Uint32Array, capacity, u32View);
    this.spill = spill;
  }
  /** Adopts `values` as the filled part (no copy; later pushes go to new chunks). */
  static from(values: Uint32Array, spill: ChunkSpill | null = null): GrowableU32 {
    return new GrowableU32(0).adopt(values, spill);
  }
}

/** Number of leading elements of an ascending sequence that are <= limit (binary search). */
export function countAtMost(n: number, valueAt: (i: number) => number, limit: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (valueAt(mid) <= limit) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

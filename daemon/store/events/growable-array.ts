// Append-only typed arrays: the columns and posting lists of the in-memory WAF index (a JS
// array of numbers would cost 2-4x the memory).
//
// Stored in chunks of 16,384 elements, not one array that doubles: a restored index adopts
// its snapshot arrays as chunk views (no copy), and a push never copies more than one
// partial chunk. One doubling array made the first append after an open copy every column
// of the site into one twice its size (~44 MB written and page-faulted for 1M events,
// ~1.6 us per row of a 100,000-row append) and kept the spare half resident.

type TypedCtor<T> = { new (n: number): T };

const CHUNK_BITS = 14;
const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;

abstract class Growable<T extends Float64Array | Uint32Array> {
  length = 0;
  /** Chunk c holds elements [c * CHUNK, c * CHUNK + chunk.length); only the last may be short. */
  protected chunks: T[] = [];
  constructor(
    private readonly ctor: TypedCtor<T>,
    private readonly firstCapacity: number,
  ) {}
  push(v: number): void {
    const i = this.length;
    const c = i >>> CHUNK_BITS;
    let ch = this.chunks[c];
    if (ch === undefined || (i & MASK) === ch.length) ch = this.extend(c);
    ch[i & MASK] = v;
    this.length = i + 1;
  }
  get(i: number): number {
    return this.chunks[i >>> CHUNK_BITS][i & MASK];
  }
  set(i: number, v: number): void {
    this.chunks[i >>> CHUNK_BITS][i & MASK] = v;
  }
  /** A copy of the filled part. */
  copy(): T {
    const out = new this.ctor(this.length);
    for (let c = 0; c < this.chunks.length; c++) {
      const from = c << CHUNK_BITS;
      out.set(this.chunks[c].subarray(0, Math.min(CHUNK, this.length - from)), from);
    }
    return out;
  }
  /** Takes `values` as the filled part: chunk views over it, no copy. */
  protected adopt(values: T): this {
    for (let from = 0; from < values.length; from += CHUNK) this.chunks.push(values.subarray(from, Math.min(values.length, from + CHUNK)) as T);
    this.length = values.length;
    return this;
  }
  /** Room for the next element of chunk c: a new chunk, or a short last chunk made longer. */
  private extend(c: number): T {
    const old = this.chunks[c];
    // A lone first chunk doubles (small sites stay small); later chunks are full size at once.
    const size = old === undefined ? (c === 0 ? Math.max(4, this.firstCapacity) : CHUNK) : Math.min(CHUNK, Math.max(4, old.length * 2));
    const next = new this.ctor(size);
    if (old !== undefined) next.set(old);
    this.chunks[c] = next;
    return next;
  }
}

export class GrowableF64 extends Growable<Float64Array> {
  constructor(capacity = 16) {
    super(Float64Array, capacity);
  }
  /** Adopts `values` as the filled part (no copy; later pushes go to new chunks). */
  static from(values: Float64Array): GrowableF64 {
    return new GrowableF64(0).adopt(values);
  }
}

export class GrowableU32 extends Growable<Uint32Array> {
  constructor(capacity = 4) {
    super(Uint32Array, capacity);
  }
  /** Adopts `values` as the filled part (no copy; later pushes go to new chunks). */
  static from(values: Uint32Array): GrowableU32 {
    return new GrowableU32(0).adopt(values);
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

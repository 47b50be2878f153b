// Append-only typed arrays that double when full: the columns and posting lists of the
// in-memory WAF index (a JS array of numbers would cost 2-4x the memory).

type TypedCtor<T> = { new (n: number): T };

abstract class Growable<T extends Float64Array | Uint32Array> {
  length = 0;
  protected data: T;
  constructor(
    private readonly ctor: TypedCtor<T>,
    capacity: number,
  ) {
    this.data = new ctor(Math.max(4, capacity));
  }
  push(v: number): void {
    if (this.length === this.data.length) this.grow(Math.max(4, this.length * 2));
    this.data[this.length++] = v;
  }
  get(i: number): number {
    return this.data[i];
  }
  set(i: number, v: number): void {
    this.data[i] = v;
  }
  /** The filled part (a view: do not keep it across pushes). */
  view(): T {
    return this.data.subarray(0, this.length) as T;
  }
  /** A copy of the filled part. */
  copy(): T {
    return this.data.slice(0, this.length) as T;
  }
  /** Drops spare capacity (after a bulk load). */
  trim(): void {
    if (this.data.length > this.length + 4) this.grow(this.length + 4);
  }
  private grow(n: number): void {
    const next = new this.ctor(n);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
}

export class GrowableF64 extends Growable<Float64Array> {
  constructor(capacity = 16) {
    super(Float64Array, capacity);
  }
  /** Adopts `values` as the filled part (no copy; the first push beyond it reallocates). */
  static from(values: Float64Array): GrowableF64 {
    const g = new GrowableF64(0);
    g.data = values;
    g.length = values.length;
    return g;
  }
}

export class GrowableU32 extends Growable<Uint32Array> {
  constructor(capacity = 4) {
    super(Uint32Array, capacity);
  }
  /** Adopts `values` as the filled part (no copy; the first push beyond it reallocates). */
  static from(values: Uint32Array): GrowableU32 {
    const g = new GrowableU32(0);
    g.data = values;
    g.length = values.length;
    return g;
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

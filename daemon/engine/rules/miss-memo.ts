// Operator misses remembered across transactions. A browser sends the same User-Agent, Accept,
// Sec-Ch-Ua and cookie values on every request of a session, and each meets the same ~200 CRS
// rules every time, almost all of them misses. A rule's miss bit (miss-bits.ts) on a value means
// "this rule's operator returned false on this rule's transformation of this value"; that is a
// function of the value alone, so it holds for every transaction of the same rule set:
// - transformations are pure functions of their input (CONTRACT.md);
// - a rule gets a bit only when its operator parameter has no macro, so the operator's answer
//   depends on its input alone, and operators have no side effects on a miss (CONTRACT.md);
// - only misses are remembered: a match runs the operator again (captures, setvar, logging);
// - a bit is set only after the operator returned false; an exec stopped by the time budget
//   throws (budget/time-budget.ts) and sets nothing, and a watchdog-stopped exec reruns;
// - the memo belongs to one compiled rule set (bit numbers are that set's), so a reload, which
//   builds a new set, starts with an empty memo.
//
// Bounded: at most `limit` values (and `byteLimit` bytes of keys); when full it starts over with
// a new table (transactions under way keep the rows they hold: a row is never given to another
// value). Starting over costs the values in use one request's worth of operator runs to learn
// again; a second generation searched on every miss cost more than that (+1 Map lookup per new
// value). Values longer than `maxValueLength` are not kept: their bits live for the transaction
// only. Keys are copied: a value sliced from a large body would otherwise keep the body alive.
// A value is admitted on its second sighting (sightings.ts): until then its bits live for the
// transaction only, so values met once (unique query strings, posted content) cost no copy and
// no insert, and do not push out the values that come back.
import { Sightings } from './sightings.js';
import { speedLayerOn } from './speed-layers.js';

export interface MissMemoLimits {
  /** Values kept (0: no memo, every value's bits live for its transaction only). */
  limit: number;
  /** Bytes of keys kept. */
  byteLimit: number;
  /** Longest value kept. */
  maxValueLength: number;
  /** Values the recently-seen filter notes before it starts over (a value is admitted when found
   *  there; 0: admitted on its first sighting). */
  sightings: number;
}

export const DEFAULT_MISS_MEMO_LIMITS: MissMemoLimits = { limit: 2048, byteLimit: 1 << 20, maxValueLength: 4096, sightings: 8192 };

/** A copy of `value` that references no larger string: V8 keeps a substring of 13 chars or more
 *  as a slice of its parent (a cookie of the Cookie header, an argument of a 10 MB body). The
 *  concatenation is flattened into a new string of length + 1 by slice(), whose result refers to
 *  that one only (3x cheaper than a Buffer round trip, which made the memo's insert cost double). */
function detached(value: string): string {
  return value.length < 13 ? value : (' ' + value).slice(1);
}

/** Where a value's miss bits are: `words` words from `row` in `table`. Rows are never reused for
 *  another value, so whoever holds one may keep reading and setting it. */
export interface MissRow {
  table: Int32Array;
  row: number;
}

/** Rows of `words` words handed out from tables of `rows` rows; a full table is left to its
 *  holders and a new one started (no per-value allocation, nothing copied). */
export class RowAllocator {
  table: Int32Array;
  next = 0;

  constructor(readonly words: number, private readonly rows: number) {
    this.table = new Int32Array(words * rows);
  }

  /** A new zeroed row's start in `this.table` (read the table after the call). */
  allocate(): number {
    if (this.next + this.words > this.table.length) {
      this.table = new Int32Array(this.words * this.rows);
      this.next = 0;
    }
    const row = this.next;
    this.next += this.words;
    return row;
  }
}

export class MissMemo {
  private rows = new Map<string, number>();
  /** Allocated when the memo first starts (a rule set no request uses costs nothing). */
  private table = new Int32Array(0);
  private used = 0;
  private keyBytes = 0;
  /** Values seen lately, not admitted yet (made on first need). */
  private sightings: Sightings | undefined;
  /** Times the memo started over (for tests and figures). */
  restarts = -1;

  constructor(readonly words: number, readonly limits: MissMemoLimits = DEFAULT_MISS_MEMO_LIMITS) {}

  /** Values held now. */
  get size(): number {
    return this.rows.size;
  }

  /** Bytes held now: keys (one byte a char) and the table. */
  get bytes(): number {
    return this.keyBytes + 4 * this.table.length;
  }

  /** Fills `out` with the bits of `value`, shared by every transaction that meets it while it
   *  is kept; false (out untouched) when the value is not kept (too long, or seen for the first
   *  time lately: not admitted yet). */
  find(value: string, out: MissRow): boolean {
    if (value.length > this.limits.maxValueLength || this.limits.limit <= 0) return false;
    let row = this.rows.get(value);
    if (row === undefined) {
      if (this.limits.sightings > 0 && !(this.sightings ??= new Sightings(this.limits.sightings)).seenBefore(value)) return false;
      if (this.used + this.words > this.table.length || this.keyBytes + value.length > this.limits.byteLimit) this.startOver();
      row = this.used;
      this.used += this.words;
      this.rows.set(detached(value), row);
      this.keyBytes += value.length;
    }
    out.table = this.table;
    out.row = row;
    return true;
  }

  private startOver(): void {
    this.rows = new Map();
    this.table = new Int32Array(this.words * this.limits.limit);
    this.used = 0;
    this.keyBytes = 0;
    this.restarts++;
  }
}

/** The memo of a newly compiled rule set; `WAFCTL_MISS_MEMO=off` keeps misses per transaction
 *  only (for A/B runs). */
export function newMissMemo(words: number, limits: MissMemoLimits = DEFAULT_MISS_MEMO_LIMITS): MissMemo {
  return new MissMemo(words, speedLayerOn('miss-memo') ? limits : { ...limits, limit: 0 });
}

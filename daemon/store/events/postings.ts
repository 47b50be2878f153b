// Exact-match postings (client IP, rule id, group) as chains through the event columns:
// each key has a head (its newest position + 1) and a count; each position keeps the
// previous position with the same key (+ 1; 0 ends the chain). Newest-first pages walk
// the chain; the exact total is the count. Four bytes per event and two numbers per key,
// instead of one growable array per key: millions of small arrays would cost far more
// memory and garbage collection.
//
// A key's slot is found by the string table's key id (slot-index.ts: a typed array indexed
// by it), not by a Map from key strings: a restored index fills it from ids resolved at open,
// while a Map had to be built per site by the first append (~0.2 s for 1M events, ~2 us a
// row of a 100,000-row append) and cost ~40 bytes a key besides.
//
// Each slot also keeps the string table ref of one value with its key: a snapshot stores
// those refs, so a restore takes each key and key id from the restored table by index
// instead of parsing ~230k key strings and hashing each into the table's Map (~0.2 s of
// a 1M-event open, most of it hashing strings that were just parsed).
import { GrowableU32 } from './growable-array.js';
import { SlotIndex } from './slot-index.js';
import type { ChunkSpill } from './chunk-spill.js';

export interface PostingsSnapshot {
  /** Per slot: the string table ref of a value whose key is the slot's key. */
  keyRefs: Uint32Array;
  heads: Uint32Array;
  counts: Uint32Array;
  prev: Uint32Array;
}

/** Search key -> key id of the table the postings' keys come from (undefined: unknown key). */
export type KeyIdOf = (key: string) => number | undefined;

/** What restored postings need of their string table: keys and key ids by value ref. */
export interface KeyTable {
  readonly keys: readonly string[];
  readonly keyIds: readonly number[];
}

export class Postings {
  keys: string[] = [];
  /** Slot -> ref of a value with that key (what a snapshot stores). */
  private readonly keyRefs: GrowableU32;
  /** Key id -> slot. */
  private readonly slots: SlotIndex;
  private readonly heads: GrowableU32;
  private readonly counts: GrowableU32;
  readonly prev: GrowableU32;

  /**
   * Restored postings take their keys and key ids from `table` (the restored string table) by `s.keyRefs`.
   * `spill`: full chunks of `prev` (push-only, one link per event) may leave memory; heads and counts change, so they stay.
   */
  constructor(
    private readonly keyIdOf: KeyIdOf,
    s?: PostingsSnapshot,
    table?: KeyTable,
    spill: ChunkSpill | null = null,
  ) {
    if (!s || !table) {
      this.slots = new SlotIndex();
      this.keyRefs = new GrowableU32(16);
      this.heads = new GrowableU32(16);
      this.counts = new GrowableU32(16);
      this.prev = new GrowableU32(1024, spill);
      return;
    }
    const n = s.keyRefs.length;
    if (s.heads.length !== n || s.counts.length !== n) throw new Error(`postings snapshot: ${n} keys, ${s.heads.length} heads, ${s.counts.length} counts`);
    const keys = new Array<string>(n);
    const ids = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const r = s.keyRefs[i];
      if (r >= table.keys.length) throw new Error(`postings snapshot: key ref ${r} outside the table (${table.keys.length} values)`);
      keys[i] = table.keys[r];
      ids[i] = table.keyIds[r];
    }
    this.keys = keys;
    this.keyRefs = GrowableU32.from(s.keyRefs);
    this.heads = GrowableU32.from(s.heads);
    this.counts = GrowableU32.from(s.counts);
    this.prev = GrowableU32.from(s.prev, spill);
    this.slots = SlotIndex.of(ids);
  }

  /**
   * Files position `p` (the next position) under `key` (id `keyId`, of the value with table
   * ref `ref`); returns true for a new key.
   */
  add(ref: number, keyId: number, key: string, p: number): boolean {
    let slot = this.slots.get(keyId);
    const isNew = slot < 0;
    if (isNew) {
      slot = this.keys.length;
      this.keys.push(key);
      this.keyRefs.push(ref);
      this.slots.set(keyId, slot);
      this.heads.push(0);
      this.counts.push(0);
    }
    this.prev.push(this.heads.get(slot));
    this.heads.set(slot, p + 1);
    this.counts.set(slot, this.counts.get(slot) + 1);
    return isNew;
  }

  has(key: string): boolean {
    return this.slot(key) >= 0;
  }

  count(key: string): number {
    const slot = this.slot(key);
    return slot < 0 ? 0 : this.counts.get(slot);
  }

  /** Newest position + 1 of `key`, 0 if none. */
  head(key: string): number {
    const slot = this.slot(key);
    return slot < 0 ? 0 : this.heads.get(slot);
  }

  /** All positions of `key`, newest first. */
  positions(key: string): number[] {
    const out: number[] = [];
    for (let at = this.head(key); at !== 0; at = this.prev.get(at - 1)) out.push(at - 1);
    return out;
  }

  snapshot(): PostingsSnapshot {
    return { keyRefs: this.keyRefs.copy(), heads: this.heads.copy(), counts: this.counts.copy(), prev: this.prev.copy() };
  }

  /** Slot of `key`, -1 if it has no position here. */
  private slot(key: string): number {
    const id = this.keyIdOf(key);
    return id === undefined ? -1 : this.slots.get(id);
  }
}

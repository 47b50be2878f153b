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
import { GrowableU32 } from './growable-array.js';
import { SlotIndex } from './slot-index.js';

export interface PostingsSnapshot {
  keys: string[];
  heads: Uint32Array;
  counts: Uint32Array;
  prev: Uint32Array;
}

/** Search key -> key id of the table the postings' keys come from (undefined: unknown key). */
export type KeyIdOf = (key: string) => number | undefined;

export class Postings {
  keys: string[] = [];
  /** Key id -> slot. */
  private readonly slots: SlotIndex;
  private readonly heads: GrowableU32;
  private readonly counts: GrowableU32;
  readonly prev: GrowableU32;

  /** `keyIds` are the ids of `s.keys` (StringTable.restoreKeyIds). */
  constructor(
    private readonly keyIdOf: KeyIdOf,
    s?: PostingsSnapshot,
    keyIds?: Uint32Array,
  ) {
    if (!s || !keyIds) {
      this.slots = new SlotIndex();
      this.heads = new GrowableU32(16);
      this.counts = new GrowableU32(16);
      this.prev = new GrowableU32(1024);
      return;
    }
    this.heads = GrowableU32.from(s.heads);
    this.counts = GrowableU32.from(s.counts);
    this.prev = GrowableU32.from(s.prev);
    this.keys = s.keys;
    this.slots = SlotIndex.of(keyIds);
  }

  /** Files position `p` (the next position) under `key` (id `keyId`); returns true for a new key. */
  add(keyId: number, key: string, p: number): boolean {
    let slot = this.slots.get(keyId);
    const isNew = slot < 0;
    if (isNew) {
      slot = this.keys.length;
      this.keys.push(key);
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
    return { keys: this.keys.slice(), heads: this.heads.copy(), counts: this.counts.copy(), prev: this.prev.copy() };
  }

  /** Slot of `key`, -1 if it has no position here. */
  private slot(key: string): number {
    const id = this.keyIdOf(key);
    return id === undefined ? -1 : this.slots.get(id);
  }
}

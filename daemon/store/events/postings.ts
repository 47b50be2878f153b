// Exact-match postings (client IP, rule id, group) as chains through the event columns:
// each key has a head (its newest position + 1) and a count; each position keeps the
// previous position with the same key (+ 1; 0 ends the chain). Newest-first pages walk
// the chain; the exact total is the count. Four bytes per event and two numbers per key,
// instead of one growable array per key: millions of small arrays would cost far more
// memory and garbage collection.
import { GrowableU32 } from './growable-array.js';

export interface PostingsSnapshot {
  keys: string[];
  heads: Uint32Array;
  counts: Uint32Array;
  prev: Uint32Array;
}

export class Postings {
  keys: string[] = [];
  /** Key -> slot, built on first use (a restored index may never be asked about most sites). */
  private slotMap: Map<string, number> | null = null;
  private readonly heads: GrowableU32;
  private readonly counts: GrowableU32;
  readonly prev: GrowableU32;

  constructor(s?: PostingsSnapshot) {
    if (!s) {
      this.heads = new GrowableU32(16);
      this.counts = new GrowableU32(16);
      this.prev = new GrowableU32(1024);
      return;
    }
    this.heads = GrowableU32.from(s.heads);
    this.counts = GrowableU32.from(s.counts);
    this.prev = GrowableU32.from(s.prev);
    this.keys = s.keys;
  }

  private get slots(): Map<string, number> {
    if (this.slotMap === null) {
      this.slotMap = new Map();
      for (let i = 0; i < this.keys.length; i++) this.slotMap.set(this.keys[i], i);
    }
    return this.slotMap;
  }

  /** Files position `p` (the next position) under `key`; returns true for a new key. */
  add(key: string, p: number): boolean {
    let slot = this.slots.get(key);
    const isNew = slot === undefined;
    if (slot === undefined) {
      slot = this.keys.length;
      this.keys.push(key);
      this.slots.set(key, slot);
      this.heads.push(0);
      this.counts.push(0);
    }
    this.prev.push(this.heads.get(slot));
    this.heads.set(slot, p + 1);
    this.counts.set(slot, this.counts.get(slot) + 1);
    return isNew;
  }

  has(key: string): boolean {
    return this.slots.has(key);
  }

  count(key: string): number {
    const slot = this.slots.get(key);
    return slot === undefined ? 0 : this.counts.get(slot);
  }

  /** Newest position + 1 of `key`, 0 if none. */
  head(key: string): number {
    const slot = this.slots.get(key);
    return slot === undefined ? 0 : this.heads.get(slot);
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
}

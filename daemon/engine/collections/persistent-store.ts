// Persistent collections (initcol: IP, GLOBAL, SESSION, USER, RESOURCE) kept in memory
// between transactions of one WAF instance, with ModSecurity's expiry: a record unused for
// SecCollectionTimeout seconds is dropped, and expirevar drops single variables. One process
// only; a shared store (Redis) can implement the same interface later.
import { MutableCollection } from './mutable-collection.js';

export interface PersistentCollectionStore {
  /** The live record for `collection` + `key`, created empty when absent or timed out. */
  open(collection: string, key: string, now: number): MutableCollection;
}

interface Record {
  data: MutableCollection;
  lastUsed: number;
}

export class InMemoryCollectionStore implements PersistentCollectionStore {
  private readonly records = new Map<string, Record>();
  private opensSinceSweep = 0;

  constructor(private readonly timeoutMs: () => number) {}

  open(collection: string, key: string, now: number): MutableCollection {
    const id = `${collection.toUpperCase()}\u0000${key}`;
    let record = this.records.get(id);
    if (record !== undefined && now - record.lastUsed > this.timeoutMs()) record = undefined;
    if (record === undefined) {
      record = { data: new MutableCollection(collection.toUpperCase()), lastUsed: now };
      this.records.set(id, record);
    }
    record.lastUsed = now;
    record.data.purgeExpired(now);
    if (++this.opensSinceSweep >= 1000) this.sweep(now);
    return record.data;
  }

  private sweep(now: number): void {
    this.opensSinceSweep = 0;
    const timeout = this.timeoutMs();
    for (const [id, record] of this.records) if (now - record.lastUsed > timeout) this.records.delete(id);
  }

  get recordCount(): number {
    return this.records.size;
  }
}

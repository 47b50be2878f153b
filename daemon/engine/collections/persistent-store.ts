// Persistent collections (initcol: IP, GLOBAL, SESSION, USER, RESOURCE) kept in memory
// between transactions of one WAF instance, with ModSecurity's expiry: a record unused for
// SecCollectionTimeout seconds is dropped, and expirevar drops single variables. One process
// only; a shared store (Redis) can implement the same interface later.
//
// Bounded: CRS opens one IP record per client address and User-Agent hash
// (`initcol:ip=%{remote_addr}_%{tx.ua_hash}`), so a flood of new User-Agents or addresses would
// otherwise add a record per request for an hour. Each collection holds at most `maxRecords`;
// when a new record does not fit, the least recently used one goes. Each collection's records are
// kept in order of last use (recency-list.ts), so the least recently used is also the soonest to
// expire: the sweep stops at the first live record.
// Decision and figures: ../README.md, "Persistent collections".
import { MutableCollection } from './mutable-collection.js';
import { RecencyList } from './recency-list.js';

export interface PersistentCollectionStore {
  /** The live record for `collection` + `key`, created empty when absent or timed out. */
  open(collection: string, key: string, now: number): MutableCollection;
}

/** Records per collection by default (why this many: ../README.md, "Persistent collections"). */
export const DEFAULT_MAX_RECORDS = 100_000;
/** Opens between two sweeps of expired records. */
const SWEEP_EVERY = 1000;

interface Record {
  data: MutableCollection;
  lastUsed: number;
}

/** One collection's records (IP, GLOBAL, ...). */
interface Collection {
  name: string;
  records: RecencyList<Record>;
}

export class InMemoryCollectionStore implements PersistentCollectionStore {
  /** By name as the rules spell it (ip, IP) and upper case: several names, one collection. */
  private readonly byName = new Map<string, Collection>();
  private readonly collections: Collection[] = [];
  private opensSinceSweep = 0;
  /** Records dropped to stay within `maxRecords` (expired ones are not counted). */
  evictions = 0;

  constructor(
    private readonly timeoutMs: () => number,
    readonly maxRecords: number = DEFAULT_MAX_RECORDS,
  ) {
    if (!Number.isInteger(maxRecords) || maxRecords < 1) throw new RangeError(`maxRecords must be a positive integer, got ${maxRecords}`);
  }

  open(collection: string, key: string, now: number): MutableCollection {
    const c = this.collectionNamed(collection);
    const records = c.records;
    let node = records.get(key);
    if (node !== undefined && now - node.value.lastUsed > this.timeoutMs()) {
      records.delete(node);
      node = undefined;
    }
    if (node === undefined) {
      if (records.size >= this.maxRecords) {
        records.delete(records.oldest!);
        this.evictions++;
      }
      node = records.add(key, { data: new MutableCollection(c.name), lastUsed: now });
    } else {
      records.touch(node);
    }
    const record = node.value;
    record.lastUsed = now;
    record.data.purgeExpired(now);
    if (++this.opensSinceSweep >= SWEEP_EVERY) this.sweep(now);
    return record.data;
  }

  /** Records held, over all collections. */
  get recordCount(): number {
    let count = 0;
    for (const c of this.collections) count += c.records.size;
    return count;
  }

  /** Records held in one collection. */
  recordsIn(collection: string): number {
    return this.byName.get(collection.toUpperCase())?.records.size ?? 0;
  }

  private collectionNamed(collection: string): Collection {
    let c = this.byName.get(collection);
    if (c === undefined) {
      const name = collection.toUpperCase();
      c = this.byName.get(name);
      if (c === undefined) {
        c = { name, records: new RecencyList() };
        this.collections.push(c);
        this.byName.set(name, c);
      }
      this.byName.set(collection, c);
    }
    return c;
  }

  /** Drops expired records from the oldest end of each collection. */
  private sweep(now: number): void {
    this.opensSinceSweep = 0;
    const timeout = this.timeoutMs();
    for (const c of this.collections) {
      // In order of use, so the first live record ends the sweep (should the clock step back, an
      // expired one can stay behind it: open() still checks each record it returns).
      let node = c.records.oldest;
      while (node !== undefined && now - node.value.lastUsed > timeout) {
        const newer = node.newer;
        c.records.delete(node);
        node = newer;
      }
    }
  }
}

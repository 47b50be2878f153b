// Interned strings: rule ids, group names, hosts and client IPs repeat across millions of
// events, so each event keeps a small number (a ref) instead of its own copy.
import { canonicalIp, parseIp, type ParsedIp } from './ip-address.js';

export interface StringTableSnapshot {
  values: string[];
  keys: string[];
}

export class StringTable {
  readonly values: string[] = [];
  /** Search key of each value (lower-cased; canonical address for IPs). */
  readonly keys: string[] = [];
  /**
   * Dense id of each value's search key (values that differ only in case, or IPs in
   * spelling, share one): postings find a key's slot by this number in a typed array
   * instead of a Map from key strings, which a restored index would have to build site by
   * site on its first append (~0.2 s for 1M events).
   */
  readonly keyIds: number[] = [];
  keyCount = 0;
  private readonly refs = new Map<string, number>();
  /** Ids of keys that no value spells exactly (e.g. "abc" when only "ABC" was seen). */
  private readonly keyOnly = new Map<string, number>();

  ref(value: string): number {
    let r = this.refs.get(value);
    if (r === undefined) {
      r = this.values.length;
      const key = this.keyOf(value);
      this.keyIds.push(this.newValueKeyId(value, key));
      this.values.push(value);
      this.keys.push(key);
      this.refs.set(value, r);
    }
    return r;
  }

  /** The id of a search key, or undefined if no value has that key. */
  keyId(key: string): number | undefined {
    const k = this.keyOnly.get(key);
    if (k !== undefined) return k;
    const r = this.refs.get(key);
    return r !== undefined && this.keys[r] === key ? this.keyIds[r] : undefined;
  }

  /** Key id for a value not in the table yet (call before it is added). */
  private newValueKeyId(value: string, key: string): number {
    // A key equal to the new value can only be known from another spelling (keyOnly).
    const k = key === value ? this.keyOnly.get(key) : this.keyId(key);
    if (k !== undefined) return k;
    const id = this.keyCount++;
    if (key !== value) this.keyOnly.set(key, id);
    return id;
  }

  protected keyOf(value: string): string {
    return value.toLowerCase();
  }

  snapshot(): StringTableSnapshot {
    return { values: this.values.slice(), keys: this.keys.slice() };
  }

  /** Restores values with their stored keys (no re-parsing). */
  restore(s: StringTableSnapshot): this {
    for (let i = 0; i < s.values.length; i++) {
      const v = s.values[i];
      // Most keys equal their value: share one string instead of keeping two copies.
      const key = s.keys[i] === v ? v : s.keys[i];
      this.keyIds.push(this.newValueKeyId(v, key));
      this.values.push(v);
      this.keys.push(key);
      this.refs.set(v, i);
    }
    return this;
  }

}

/** Client IPs as submitted; the key is the canonical address (or the lower-cased text if invalid). */
export class IpTable extends StringTable {
  /** Canonical address -> parsed form, filled on demand (CIDR search). */
  private readonly parsedKeys = new Map<string, ParsedIp | null>();

  /**
   * Not cached here: a flood from millions of distinct addresses would keep a parsed object
   * (~150 bytes) per address for CIDR searches that may never come (parsedKey() caches those
   * it is asked for). The value itself is the key when it is already canonical (one string, not two).
   */
  protected override keyOf(value: string): string {
    const canonical = canonicalIp(value);
    if (canonical === null) return value.toLowerCase();
    return canonical === value ? value : canonical;
  }

  /** The parsed form of a key, or null if the key is not an address. */
  parsedKey(key: string): ParsedIp | null {
    let p = this.parsedKeys.get(key);
    if (p === undefined) this.parsedKeys.set(key, (p = parseIp(key)));
    return p;
  }
}

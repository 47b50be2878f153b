// Interned strings: rule ids, group names, hosts and client IPs repeat across millions of
// events, so each event keeps a small number (a ref) instead of its own copy.
import { parseIp, type ParsedIp } from './ip-address.js';

export interface StringTableSnapshot {
  values: string[];
  keys: string[];
}

export class StringTable {
  readonly values: string[] = [];
  /** Search key of each value (lower-cased; canonical address for IPs). */
  readonly keys: string[] = [];
  private readonly refs = new Map<string, number>();

  ref(value: string): number {
    let r = this.refs.get(value);
    if (r === undefined) {
      r = this.values.length;
      this.values.push(value);
      this.keys.push(this.keyOf(value));
      this.refs.set(value, r);
    }
    return r;
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
      this.values.push(v);
      // Most keys equal their value: share one string instead of keeping two copies.
      this.keys.push(s.keys[i] === v ? v : s.keys[i]);
      this.refs.set(v, i);
    }
    return this;
  }

  /** The table's own copy of a key (so restored structures do not keep duplicates). */
  internKey(key: string): string {
    const r = this.refs.get(key);
    return r !== undefined && this.keys[r] === key ? this.keys[r] : key;
  }
}

/** Client IPs as submitted; the key is the canonical address (or the lower-cased text if invalid). */
export class IpTable extends StringTable {
  /** Canonical address -> parsed form, filled on demand (CIDR search). */
  private readonly parsedKeys = new Map<string, ParsedIp | null>();

  protected override keyOf(value: string): string {
    const p = parseIp(value);
    if (!p) return value.toLowerCase();
    this.parsedKeys.set(p.canonical, p);
    return p.canonical;
  }

  /** The parsed form of a key, or null if the key is not an address. */
  parsedKey(key: string): ParsedIp | null {
    let p = this.parsedKeys.get(key);
    if (p === undefined) this.parsedKeys.set(key, (p = parseIp(key)));
    return p;
  }
}

// One site's WAF events in memory, by position (0 = oldest id): columns for the result rows,
// postings for exact IP, rule id and group (counts give exact totals for free; pages walk
// from the newest), URIs for substring search, and the site's IPs grouped in /16 (v4) or
// /32 (v6) buckets so a CIDR search looks at a few addresses, not all of them.
import { GrowableF64, GrowableU32 } from './growable-array.js';
import { Postings, type PostingsSnapshot } from './postings.js';
import { UriColumn, type UriColumnSnapshot } from './uri-column.js';
import type { IpTable, StringTable } from './string-table.js';
import type { ChunkSpill } from './chunk-spill.js';

export interface SiteWafColumns {
  ids: Float64Array;
  ts: Float64Array;
  ip: Uint32Array;
  rule: Uint32Array;
  group: Uint32Array;
  host: Uint32Array;
  /** The stored edge action per event, as event-action.ts codes. */
  action: Uint32Array;
  uris: UriColumnSnapshot;
  byIp: PostingsSnapshot;
  byRule: PostingsSnapshot;
  byGroup: PostingsSnapshot;
}

export interface WafTables {
  ips: IpTable;
  rules: StringTable;
  groups: StringTable;
  hosts: StringTable;
}

export class SiteWafIndex {
  readonly ids: GrowableF64;
  readonly ts: GrowableF64;
  readonly ip: GrowableU32;
  readonly rule: GrowableU32;
  readonly group: GrowableU32;
  readonly host: GrowableU32;
  /** event-action.ts codes: what the edge did, so a row can say detected rather than look like a block. */
  readonly action: GrowableU32;
  readonly uris: UriColumn;
  /** Canonical IP -> positions. */
  readonly byIp: Postings;
  /** Lower-cased rule id -> positions. */
  readonly byRule: Postings;
  /** Lower-cased group -> positions. */
  readonly byGroup: Postings;
  /** IP bucket -> canonical IPs of this site in it; built on the first CIDR search. */
  private bucketMap: Map<string, string[]> | null = null;

  /** `spill`: full chunks of the per-event columns may leave memory (chunk-spill.ts). */
  constructor(
    private readonly tables: WafTables,
    c?: SiteWafColumns,
    spill: ChunkSpill | null = null,
  ) {
    this.ids = c ? GrowableF64.from(c.ids, spill) : new GrowableF64(16, spill);
    this.ts = c ? GrowableF64.from(c.ts, spill) : new GrowableF64(16, spill);
    this.ip = c ? GrowableU32.from(c.ip, spill) : new GrowableU32(16, spill);
    this.rule = c ? GrowableU32.from(c.rule, spill) : new GrowableU32(16, spill);
    this.group = c ? GrowableU32.from(c.group, spill) : new GrowableU32(16, spill);
    this.host = c ? GrowableU32.from(c.host, spill) : new GrowableU32(16, spill);
    this.action = c ? GrowableU32.from(c.action, spill) : new GrowableU32(16, spill);
    this.uris = c ? UriColumn.restore(c.uris, spill) : UriColumn.withSpill(spill);
    // Restored postings take their keys and key ids from the restored tables, by value ref.
    this.byIp = new Postings((k) => tables.ips.keyId(k), c?.byIp, tables.ips, spill);
    this.byRule = new Postings((k) => tables.rules.keyId(k), c?.byRule, tables.rules, spill);
    this.byGroup = new Postings((k) => tables.groups.keyId(k), c?.byGroup, tables.groups, spill);
  }

  get buckets(): Map<string, string[]> {
    if (this.bucketMap === null) {
      this.bucketMap = new Map();
      for (const key of this.byIp.keys) this.bucket(key);
    }
    return this.bucketMap;
  }

  get length(): number {
    return this.ids.length;
  }

  add(id: number, ts: number, ipRef: number, ruleRef: number, groupRef: number, hostRef: number, actionCode: number, uri: string): void {
    const p = this.ids.length;
    this.ids.push(id);
    this.ts.push(ts);
    this.ip.push(ipRef);
    this.rule.push(ruleRef);
    this.group.push(groupRef);
    this.host.push(hostRef);
    this.action.push(actionCode);
    this.uris.push(uri);
    const t = this.tables;
    const ipKey = t.ips.keys[ipRef];
    if (this.byIp.add(ipRef, t.ips.keyIds[ipRef], ipKey, p) && this.bucketMap !== null) this.bucket(ipKey);
    this.byRule.add(ruleRef, t.rules.keyIds[ruleRef], t.rules.keys[ruleRef], p);
    this.byGroup.add(groupRef, t.groups.keyIds[groupRef], t.groups.keys[groupRef], p);
  }

  columns(): SiteWafColumns {
    return {
      ids: this.ids.copy(),
      ts: this.ts.copy(),
      ip: this.ip.copy(),
      rule: this.rule.copy(),
      group: this.group.copy(),
      host: this.host.copy(),
      action: this.action.copy(),
      uris: this.uris.snapshot(),
      byIp: this.byIp.snapshot(),
      byRule: this.byRule.snapshot(),
      byGroup: this.byGroup.snapshot(),
    };
  }

  private bucket(ipKey: string): void {
    const parsed = this.tables.ips.parsedKey(ipKey);
    if (!parsed || this.bucketMap === null) return;
    const list = this.bucketMap.get(parsed.bucket);
    if (list) list.push(ipKey);
    else this.bucketMap.set(parsed.bucket, [ipKey]);
  }
}

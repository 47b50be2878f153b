// The in-memory WAF event index of all sites: shared string tables plus one SiteWafIndex per
// site. Entries are added in id order (the commit order), which keeps every position list
// ascending in id as well.
import { SiteWafIndex, type SiteWafColumns, type WafTables } from './site-waf-index.js';
import { IpTable, StringTable, type StringTableSnapshot } from './string-table.js';
import { dayOfMs } from './segment-names.js';
import { unpackOrDamage } from './snapshot-damage.js';
import { ChunkSpill, type SpillOptions } from './chunk-spill.js';
import { edgeActionCode, edgeActionOf } from './event-action.js';

/** The fields the index needs from a stored WAF event. */
export interface WafIndexEntry {
  id: number;
  site_id: number;
  timestamp_ms: number;
  client_ip: string;
  uri: string;
  rule_id: string;
  group: string;
  host: string;
  /** The stored edge action (`block`, `log`...); absent on ingested events. */
  action?: string;
}

export interface WafIndexSnapshot {
  maxId: number;
  ips: StringTableSnapshot;
  rules: StringTableSnapshot;
  groups: StringTableSnapshot;
  hosts: StringTableSnapshot;
  /** Sites never unpacked since the open stay packed (a snapshot writes their stored bytes back). */
  sites: [number, SiteWafColumns | PackedSite][];
}

/**
 * A site as a snapshot stores it, turned into columns on first use: an open restores the
 * shared string tables and no site's columns or postings; the first search, row or append
 * of a site unpacks that site alone (a tenth of the work on the benchmark's 10 sites).
 */
export interface PackedSite {
  /** Events of the site (counted without unpacking). */
  length: number;
  unpack(): SiteWafColumns;
  /** The stored form, opaque here (index-snapshot.ts writes it back). */
  stored: unknown;
}

/** What an open restores from: the snapshot with its sites still packed. */
export type PackedWafIndex = Omit<WafIndexSnapshot, 'sites'> & { sites: [number, PackedSite][] };

export class WafIndex {
  readonly tables: WafTables = { ips: new IpTable(), rules: new StringTable(), groups: new StringTable(), hosts: new StringTable() };
  private readonly sites = new Map<number, SiteWafIndex | PackedSite>();
  /** Highest id added (committed). */
  maxId = 0;
  count = 0;
  /** Null: everything stays in memory (no budget given). */
  readonly spill: ChunkSpill | null;

  /** `spill`: a memory budget for the sealed per-event chunks, beyond which the oldest go to a spill file (chunk-spill.ts). */
  constructor(readonly spillOptions?: SpillOptions) {
    this.spill = spillOptions ? new ChunkSpill(spillOptions) : null;
  }

  /** Drops the spill file (call when this index is replaced or the store closes). */
  release(): void {
    this.spill?.release();
  }

  add(e: WafIndexEntry): void {
    this.addWithId(e.id, e);
  }

  /** Adds an event under `id` (ids must rise). `e` may carry more fields; only these are read. */
  addWithId(id: number, e: Omit<WafIndexEntry, 'id'>): void {
    let site = this.site(e.site_id);
    if (!site) this.sites.set(e.site_id, (site = new SiteWafIndex(this.tables, undefined, this.spill)));
    const t = this.tables;
    site.add(id, e.timestamp_ms, t.ips.ref(e.client_ip), t.rules.ref(e.rule_id), t.groups.ref(e.group), t.hosts.ref(e.host), edgeActionCode(e.action), e.uri);
    if (id > this.maxId) this.maxId = id;
    this.count++;
  }

  /** The site's index, unpacked if it was still as the snapshot stored it. */
  site(siteId: number): SiteWafIndex | undefined {
    const s = this.sites.get(siteId);
    if (s === undefined || s instanceof SiteWafIndex) return s;
    const site = unpackOrDamage('waf', `site ${siteId}`, () => {
      const unpacked = new SiteWafIndex(this.tables, s.unpack(), this.spill);
      if (unpacked.length !== s.length) throw new Error(`${unpacked.length} events unpacked, ${s.length} expected`);
      return unpacked;
    });
    this.sites.set(siteId, site);
    return site;
  }

  /** Unpacks one site still packed; false when none is left. */
  unpackNext(): boolean {
    for (const [id, s] of this.sites) {
      if (s instanceof SiteWafIndex) continue;
      this.site(id);
      return true;
    }
    return false;
  }

  /** Every site, unpacked (retention, rebuilds). */
  private allSites(): [number, SiteWafIndex][] {
    return [...this.sites.keys()].map((id) => [id, this.site(id)!]);
  }

  siteIds(): number[] {
    return [...this.sites.keys()];
  }

  snapshot(): WafIndexSnapshot {
    const t = this.tables;
    return {
      maxId: this.maxId,
      ips: t.ips.snapshot(),
      rules: t.rules.snapshot(),
      groups: t.groups.snapshot(),
      hosts: t.hosts.snapshot(),
      sites: [...this.sites].map(([id, s]) => [id, s instanceof SiteWafIndex ? s.columns() : s]),
    };
  }

  static restore(s: PackedWafIndex, spill?: SpillOptions): WafIndex {
    const idx = new WafIndex(spill);
    idx.tables.ips.restore(s.ips);
    idx.tables.rules.restore(s.rules);
    idx.tables.groups.restore(s.groups);
    idx.tables.hosts.restore(s.hosts);
    for (const [id, packed] of s.sites) {
      idx.sites.set(id, packed);
      idx.count += packed.length;
    }
    idx.maxId = s.maxId;
    return idx;
  }

  /** Every entry, site by site (slow path: retention and recovery rebuilds). */
  *entries(): Generator<WafIndexEntry> {
    const t = this.tables;
    for (const [siteId, s] of this.allSites()) {
      for (let p = 0; p < s.length; p++) {
        yield {
          id: s.ids.get(p),
          site_id: siteId,
          timestamp_ms: s.ts.get(p),
          client_ip: t.ips.values[s.ip.get(p)],
          uri: s.uris.get(p),
          rule_id: t.rules.values[s.rule.get(p)],
          group: t.groups.values[s.group.get(p)],
          host: t.hosts.values[s.host.get(p)],
          action: edgeActionOf(s.action.get(p)),
        };
      }
    }
  }

  /**
   * A new index without the entries whose UTC day fails `keepDay` (retention, a segment gone
   * at open). Site by site in position order, so nothing is sorted and no entry objects pile
   * up: the transient cost is the new columns.
   */
  filtered(keepDay: (day: number) => boolean): WafIndex {
    const next = new WafIndex(this.spillOptions);
    const t = this.tables;
    for (const [siteId, s] of this.allSites()) {
      for (let p = 0; p < s.length; p++) {
        const ts = s.ts.get(p);
        if (!keepDay(dayOfMs(ts))) continue;
        next.addWithId(s.ids.get(p), {
          site_id: siteId,
          timestamp_ms: ts,
          client_ip: t.ips.values[s.ip.get(p)],
          uri: s.uris.get(p),
          rule_id: t.rules.values[s.rule.get(p)],
          group: t.groups.values[s.group.get(p)],
          host: t.hosts.values[s.host.get(p)],
          action: edgeActionOf(s.action.get(p)),
        });
      }
    }
    next.maxId = Math.max(next.maxId, this.maxId);
    return next;
  }

  /**
   * A new index with the entries whose UTC day passes `keepDay`, plus `extra` entries, in id
   * order. Used when whole days leave (retention, a segment gone or re-read at open).
   */
  rebuilt(keepDay: (day: number) => boolean, extra: readonly WafIndexEntry[]): WafIndex {
    const all: WafIndexEntry[] = [];
    for (const e of this.entries()) if (keepDay(dayOfMs(e.timestamp_ms))) all.push(e);
    for (const e of extra) all.push(e);
    all.sort((a, b) => a.id - b.id);
    const next = new WafIndex(this.spillOptions);
    for (const e of all) next.add(e);
    next.maxId = Math.max(next.maxId, this.maxId);
    return next;
  }
}

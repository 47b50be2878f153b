// Hourly rollups of access entries per site: requests, blocked, and a HyperLogLog of client
// IPs per hour and per UTC day. /analytics reads only these: a 90-day answer merges about 90
// daily sketches and a day's worth of hourly ones at the edges, never a segment.
import type { Analytics, AnalyticsPeriod } from '../../../shared/schemas/events.js';
import { PERIOD_HOURS } from '../../../shared/schemas/events.js';
import { HLL_M, HyperLogLog, estimateRegisters, hllKey } from './hyperloglog.js';
import { MS_PER_HOUR } from './segment-names.js';
import { unpackOrDamage } from './snapshot-damage.js';

interface HourRollup {
  requests: number;
  blocked: number;
  visitors: HyperLogLog;
}

class SiteRollups {
  readonly hours = new Map<number, HourRollup>();
  readonly days = new Map<number, HyperLogLog>();
}

export interface RollupSnapshotSite {
  site: number;
  hours: Float64Array;
  requests: Float64Array;
  blocked: Float64Array;
  sketches: Uint8Array[];
  days: Float64Array;
  daySketches: Uint8Array[];
}

/**
 * A site's rollups as a snapshot stores them, turned into hour maps and sketches on first
 * use: an open inflates no sketch (46 MB for 5M entries over 90 days); the first analytics
 * or append of a site unpacks that site alone.
 */
export interface PackedRollupSite {
  site: number;
  unpack(): RollupSnapshotSite;
  /** The stored form, opaque here (index-snapshot.ts writes it back). */
  stored: unknown;
}

export class AccessRollups {
  private readonly sites = new Map<number, SiteRollups | PackedRollupSite>();
  /** Highest entry id added (kept in the snapshot: the id sequence must stay above it). */
  maxId = 0;
  private readonly isoHours = new Map<number, string>();

  /** ISO 8601 start of an hour, cached: every answer repeats the same few thousand hours. */
  private readonly hourIso = (h: number): string => {
    let s = this.isoHours.get(h);
    if (s === undefined) {
      if (this.isoHours.size >= 20_000) this.isoHours.clear();
      this.isoHours.set(h, (s = new Date(h * MS_PER_HOUR).toISOString()));
    }
    return s;
  };

  /** One access entry: `timestamp` in seconds (spec 2.9). */
  add(siteId: number, timestampS: number, clientIp: string, blocked: boolean, id = 0): void {
    if (id > this.maxId) this.maxId = id;
    let s = this.site(siteId);
    if (!s) this.sites.set(siteId, (s = new SiteRollups()));
    const hour = Math.floor(timestampS / 3600);
    let h = s.hours.get(hour);
    if (!h) s.hours.set(hour, (h = { requests: 0, blocked: 0, visitors: new HyperLogLog() }));
    h.requests++;
    if (blocked) h.blocked++;
    const key = hllKey(clientIp.trim().toLowerCase());
    h.visitors.addKey(key);
    const day = Math.floor(hour / 24);
    let d = s.days.get(day);
    if (!d) s.days.set(day, (d = new HyperLogLog()));
    d.addKey(key);
  }

  /** Spec 2.3 for the `period` hours that have started by `nowMs`, oldest first. */
  analytics(siteId: number, period: AnalyticsPeriod, nowMs: number): Analytics {
    const n = PERIOD_HOURS[period];
    const end = Math.ceil(nowMs / MS_PER_HOUR);
    const start = end - n;
    const s = this.site(siteId);
    const hourly_data = new Array<{ hour: string; requests: number; blocked: number }>(n);
    const iso = this.hourIso;
    let total = 0;
    let blocked = 0;
    const acc = new Uint8Array(HLL_M);
    let any = false;
    for (let h = start; h < end; h++) {
      const r = s?.hours.get(h);
      hourly_data[h - start] = { hour: iso(h), requests: r?.requests ?? 0, blocked: r?.blocked ?? 0 };
      if (!r) continue;
      total += r.requests;
      blocked += r.blocked;
      any = true;
      const day = Math.floor(h / 24);
      // Whole days inside the period merge their daily sketch once (at their first hour).
      if (day * 24 >= start && day * 24 + 24 <= end) continue;
      r.visitors.mergeInto(acc);
    }
    if (s && any) {
      for (let day = Math.ceil(start / 24); day * 24 + 24 <= end; day++) s.days.get(day)?.mergeInto(acc);
    }
    return { period, total_requests: total, unique_visitors: any ? estimateRegisters(acc) : 0, requests_blocked: blocked, hourly_data };
  }

  /** Forgets every hour of the days that fail `keepDay`. */
  keepDays(keepDay: (day: number) => boolean): void {
    for (const [, s] of this.allSites()) {
      for (const h of s.hours.keys()) if (!keepDay(Math.floor(h / 24))) s.hours.delete(h);
      for (const d of s.days.keys()) if (!keepDay(d)) s.days.delete(d);
    }
  }

  /** Sites never unpacked since the open stay packed (a snapshot writes their stored bytes back). */
  snapshot(): (RollupSnapshotSite | PackedRollupSite)[] {
    return [...this.sites].map(([site, s]) => {
      if (!(s instanceof SiteRollups)) return s;
      const keys = [...s.hours.keys()].sort((a, b) => a - b);
      const days = [...s.days.keys()].sort((a, b) => a - b);
      return {
        site,
        days: Float64Array.from(days),
        daySketches: days.map((d) => s.days.get(d)!.toBytes().slice()),
        hours: Float64Array.from(keys),
        requests: Float64Array.from(keys, (k) => s.hours.get(k)!.requests),
        blocked: Float64Array.from(keys, (k) => s.hours.get(k)!.blocked),
        sketches: keys.map((k) => s.hours.get(k)!.visitors.toBytes().slice()),
      };
    });
  }

  static restore(sites: readonly PackedRollupSite[]): AccessRollups {
    const r = new AccessRollups();
    for (const packed of sites) r.sites.set(packed.site, packed);
    return r;
  }

  /** A site's rollups, unpacked if they were still as the snapshot stored them. */
  private site(siteId: number): SiteRollups | undefined {
    const packed = this.sites.get(siteId);
    if (packed === undefined || packed instanceof SiteRollups) return packed;
    const s = unpackOrDamage('access', `rollups of site ${siteId}`, () => {
      const snap = packed.unpack();
      const n = snap.hours.length;
      if (snap.requests.length !== n || snap.blocked.length !== n || snap.sketches.length !== n || snap.daySketches.length !== snap.days.length) {
        throw new Error('section lengths do not match');
      }
      const site = new SiteRollups();
      for (let i = 0; i < n; i++) site.hours.set(snap.hours[i], { requests: snap.requests[i], blocked: snap.blocked[i], visitors: HyperLogLog.fromBytes(snap.sketches[i]) });
      for (let i = 0; i < snap.days.length; i++) site.days.set(snap.days[i], HyperLogLog.fromBytes(snap.daySketches[i]));
      return site;
    });
    this.sites.set(siteId, s);
    return s;
  }

  /** Unpacks one site still packed; false when none is left. */
  unpackNext(): boolean {
    for (const [id, s] of this.sites) {
      if (s instanceof SiteRollups) continue;
      this.site(id);
      return true;
    }
    return false;
  }

  private allSites(): [number, SiteRollups][] {
    return [...this.sites.keys()].map((id) => [id, this.site(id)!]);
  }
}

// Index snapshots: `<events>/index/waf.snap` (the WAF index) and `access.snap` (the
// rollups), each with the segments it covers (committed size + fingerprint of those bytes).
// Written on close and periodically; read at open so that start-up loads arrays instead of
// parsing gigabytes of JSON (recovery.ts replays whatever the snapshot does not cover).
import path from 'node:path';
import { SnapshotReader, SnapshotWriter, unpackSection, type StoredSection } from './snapshot-file.js';
import type { PackedSite, PackedWafIndex, WafIndexSnapshot } from './waf-index.js';
import type { PackedRollupSite, RollupSnapshotSite } from './access-rollups.js';
import type { SiteWafColumns } from './site-waf-index.js';
import type { PostingsSnapshot } from './postings.js';
import type { StringTableSnapshot } from './string-table.js';
import { CHUNK_SIZE as URI_CHUNK, type PackedUris, type SealedUris } from './uri-column.js';
import type { EventKind } from './segment-names.js';

// 5: postings keys as string table refs (u32 sections `.refs`) instead of JSON key strings.
// 6: a u32 `action` column per event (event-action.ts codes) for the rows' action.
export const SNAPSHOT_VERSION = 6;

export interface Coverage {
  /** Segment file name -> bytes covered and their fingerprint. */
  [file: string]: { size: number; fp: string };
}

export const snapshotPath = (indexDir: string, kind: EventKind): string => path.join(indexDir, `${kind}.snap`);

interface WafMeta {
  version: number;
  coverage: Coverage;
  maxId: number;
  sites: { id: number; sealed: { lower: boolean }[] }[];
}

const POSTINGS = ['byIp', 'byRule', 'byGroup'] as const;
const U32_COLUMNS = ['ip', 'rule', 'group', 'host', 'action'] as const;

export function writeWafSnapshot(file: string, snap: WafIndexSnapshot, coverage: Coverage): Promise<number> {
  const w = new SnapshotWriter();
  const meta: WafMeta = { version: SNAPSHOT_VERSION, coverage, maxId: snap.maxId, sites: [] };
  w.json('tables', { ips: snap.ips, rules: snap.rules, groups: snap.groups, hosts: snap.hosts });
  for (const [id, c] of snap.sites) {
    const p = `s${id}.`;
    if ('unpack' in c) {
      // Never unpacked since it was read (no query or append touched it): written back as stored.
      const { sections, chunks } = c.stored as StoredSite;
      meta.sites.push({ id, sealed: chunks.map((ch) => ({ lower: ch.lowered })) });
      for (const [name, sec] of sections) w.stored(p + name, sec);
      chunks.forEach((ch, i) => writeChunk(w, p, i, ch));
      continue;
    }
    meta.sites.push({ id, sealed: c.uris.sealed.map((ch) => ({ lower: 'unpack' in ch ? ch.lowered : ch.lower !== null })) });
    w.typed(p + 'ids', c.ids);
    w.typed(p + 'ts', c.ts);
    for (const col of U32_COLUMNS) w.typed(p + col, c[col]);
    c.uris.sealed.forEach((ch, i) => writeChunk(w, p, i, ch));
    w.json(p + 'open', c.uris.open);
    for (const name of POSTINGS) {
      const ps = c[name];
      w.typed(`${p}${name}.refs`, ps.keyRefs);
      w.typed(`${p}${name}.heads`, ps.heads);
      w.typed(`${p}${name}.counts`, ps.counts);
      w.typed(`${p}${name}.prev`, ps.prev);
    }
  }
  w.json('meta', meta);
  return w.write(file);
}

function writeChunk(w: SnapshotWriter, p: string, i: number, ch: SealedUris | PackedUris): void {
  if ('unpack' in ch) {
    // Never unpacked since it was read: written back as stored.
    const { text, offsets } = ch.stored as StoredUris;
    w.stored(`${p}uri${i}`, text);
    w.stored(`${p}off${i}`, offsets);
    return;
  }
  // The lower-cased twin is not stored: it is made again on the chunk's first search (cheaper than its bytes).
  w.string(`${p}uri${i}`, ch.orig);
  w.typed(`${p}off${i}`, ch.offsets);
}

/** A packed site as read: its sections by name (without the site prefix) and its URI chunks. */
interface StoredSite {
  sections: [string, StoredSection][];
  chunks: PackedUris[];
}

/** A sealed URI chunk as the snapshot holds it: its text and line offsets, deflated. */
interface StoredUris {
  text: StoredSection;
  offsets: StoredSection;
}

function unpackUris(s: StoredUris): { orig: string; offsets: Uint32Array } {
  const off = unpackSection(s.offsets);
  return { orig: unpackSection(s.text).toString('utf8'), offsets: new Uint32Array(off.buffer, off.byteOffset, off.byteLength / 4) };
}

const f64Of = (s: StoredSection): Float64Array => {
  const b = unpackSection(s);
  return new Float64Array(b.buffer, b.byteOffset, b.byteLength / 8);
};
const u32Of = (s: StoredSection): Uint32Array => {
  const b = unpackSection(s);
  return new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4);
};
/** Elements of `size` bytes in a section, from its stored lengths (nothing inflated). */
const count = (s: StoredSection, size: number): number => (s.raw ?? s.bytes.length) / size;
const jsonOf = <T>(s: StoredSection): T => JSON.parse(unpackSection(s).toString('utf8')) as T;

/**
 * The snapshot with the string tables restored and every site packed: its sections are
 * read as stored (deflated) and unpacked by the site's first use (waf-index.ts, PackedSite).
 */
export function readWafSnapshot(file: string): { snap: PackedWafIndex; coverage: Coverage } | null {
  const r = SnapshotReader.open(file);
  if (!r) return null;
  try {
    const meta = r.json<WafMeta>('meta');
    checkVersion(meta.version);
    const tables = r.json<Record<'ips' | 'rules' | 'groups' | 'hosts', StringTableSnapshot>>('tables');
    const sites: [number, PackedSite][] = meta.sites.map(({ id, sealed }) => {
      const p = `s${id}.`;
      // Every section of the site but its URI chunks, by name: what a snapshot writes back for a site never unpacked.
      const stored: [string, StoredSection][] = [];
      const col = (name: string, type: 'f64' | 'u32' | 'json'): StoredSection => {
        const sec = r.stored(p + name, type);
        stored.push([name, sec]);
        return sec;
      };
      const postings = (name: string): { fits: boolean; load: () => PostingsSnapshot } => {
        const [refs, heads, counts, prev] = ['refs', 'heads', 'counts', 'prev'].map((part) => col(`${name}.${part}`, 'u32'));
        const keys = count(refs, 4);
        return {
          fits: count(prev, 4) === n && count(heads, 4) === keys && count(counts, 4) === keys,
          load: () => ({ keyRefs: u32Of(refs), heads: u32Of(heads), counts: u32Of(counts), prev: u32Of(prev) }),
        };
      };
      const [ids, ts] = [col('ids', 'f64'), col('ts', 'f64')];
      const [ip, rule, group, host, action] = U32_COLUMNS.map((name) => col(name, 'u32'));
      const n = count(ids, 8);
      const [byIp, byRule, byGroup] = POSTINGS.map(postings);
      const chunks = sealed.map((ch, i): PackedUris => {
        const stored: StoredUris = { text: r.stored(`${p}uri${i}`, 'str'), offsets: r.stored(`${p}off${i}`, 'u32') };
        return { stored, lowered: ch.lower, unpack: () => unpackUris(stored) };
      });
      const open = col('open', 'json');
      // What can be checked without inflating is checked now, so that a snapshot whose parts
      // do not fit together is refused at open (and rebuilt), not at the site's first use.
      const sameLength = [ts, ip, rule, group, host, action].every((c) => count(c, c === ts ? 8 : 4) === n);
      if (!sameLength || !byIp.fits || !byRule.fits || !byGroup.fits || sealed.length !== Math.floor(n / URI_CHUNK)) throw new Error(`snapshot: the sections of site ${id} do not fit together`);
      const unpack = (): SiteWafColumns => ({
        ids: f64Of(ids),
        ts: f64Of(ts),
        ip: u32Of(ip),
        rule: u32Of(rule),
        group: u32Of(group),
        host: u32Of(host),
        action: u32Of(action),
        uris: { sealed: chunks, open: jsonOf<string[]>(open) },
        byIp: byIp.load(),
        byRule: byRule.load(),
        byGroup: byGroup.load(),
      });
      const packed: StoredSite = { sections: stored, chunks };
      return [id, { length: n, unpack, stored: packed }];
    });
    return { snap: { maxId: meta.maxId, ips: tables.ips, rules: tables.rules, groups: tables.groups, hosts: tables.hosts, sites }, coverage: meta.coverage };
  } finally {
    r.close();
  }
}

/** Another format is unreadable (the caller logs it and rebuilds from the segments). */
function checkVersion(version: number): void {
  if (version !== SNAPSHOT_VERSION) throw new Error(`snapshot format ${version}, this build reads format ${SNAPSHOT_VERSION}`);
}

interface AccessMeta {
  version: number;
  coverage: Coverage;
  maxId?: number;
  sites: { site: number; hours: number }[];
}

export function writeAccessSnapshot(file: string, sites: readonly (RollupSnapshotSite | PackedRollupSite)[], coverage: Coverage, maxId: number): Promise<number> {
  const w = new SnapshotWriter();
  const meta: AccessMeta = { version: SNAPSHOT_VERSION, coverage, maxId, sites: [] };
  for (const s of sites) {
    const p = `s${s.site}.`;
    if ('unpack' in s) {
      // Never unpacked since it was read: written back as stored.
      const { hours, sections } = s.stored as StoredRollupSite;
      meta.sites.push({ site: s.site, hours });
      for (const [name, sec] of sections) w.stored(p + name, sec);
      continue;
    }
    meta.sites.push({ site: s.site, hours: s.hours.length });
    w.typed(p + 'hours', s.hours);
    w.typed(p + 'requests', s.requests);
    w.typed(p + 'blocked', s.blocked);
    w.typed(p + 'days', s.days);
    writeSketches(w, p + 'hour', s.sketches);
    writeSketches(w, p + 'day', s.daySketches);
  }
  w.json('meta', meta);
  return w.write(file);
}

/** The rollups with every site packed: sections read as stored, unpacked by the site's first use (access-rollups.ts). */
export function readAccessSnapshot(file: string): { sites: PackedRollupSite[]; coverage: Coverage; maxId: number } | null {
  const r = SnapshotReader.open(file);
  if (!r) return null;
  try {
    const meta = r.json<AccessMeta>('meta');
    checkVersion(meta.version);
    const sites = meta.sites.map(({ site }): PackedRollupSite => {
      const p = `s${site}.`;
      const sections: [string, StoredSection][] = [];
      const col = (name: string, type: 'f64' | 'u32' | 'u8'): StoredSection => {
        const sec = r.stored(p + name, type);
        sections.push([name, sec]);
        return sec;
      };
      const [hours, requests, blocked, days] = ['hours', 'requests', 'blocked', 'days'].map((name) => col(name, 'f64'));
      const sketches = (name: string): { n: number; load: () => Uint8Array[] } => {
        const [lens, bytes] = [col(`${name}.len`, 'u32'), col(`${name}.bytes`, 'u8')];
        return { n: count(lens, 4), load: () => splitSketches(u32Of(lens), unpackSection(bytes)) };
      };
      const [hourSketches, daySketches] = [sketches('hour'), sketches('day')];
      const hourCount = count(hours, 8);
      // Checked now (nothing inflated), so that parts that do not fit are refused at open, not at first use.
      const fits = count(requests, 8) === hourCount && count(blocked, 8) === hourCount && hourSketches.n === hourCount && daySketches.n === count(days, 8);
      if (!fits) throw new Error(`snapshot: the rollup sections of site ${site} do not fit together`);
      const unpack = (): RollupSnapshotSite => ({
        site,
        hours: f64Of(hours),
        requests: f64Of(requests),
        blocked: f64Of(blocked),
        sketches: hourSketches.load(),
        days: f64Of(days),
        daySketches: daySketches.load(),
      });
      const stored: StoredRollupSite = { hours: hourCount, sections };
      return { site, unpack, stored };
    });
    return { sites, coverage: meta.coverage, maxId: meta.maxId ?? 0 };
  } finally {
    r.close();
  }
}

/** Sketches of varying sizes as one byte section plus a length section. */
function writeSketches(w: SnapshotWriter, name: string, sketches: readonly Uint8Array[]): void {
  const lens = Uint32Array.from(sketches, (b) => b.length);
  const all = new Uint8Array(lens.reduce((a, b) => a + b, 0));
  let at = 0;
  for (const b of sketches) {
    all.set(b, at);
    at += b.length;
  }
  w.typed(`${name}.len`, lens);
  w.typed(`${name}.bytes`, all);
}

/** A packed site's rollups as read: its sections by name (without the site prefix). */
interface StoredRollupSite {
  hours: number;
  sections: [string, StoredSection][];
}

function splitSketches(lens: Uint32Array, all: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  for (const n of lens) {
    if (at + n > all.length) throw new Error('snapshot: sketch lengths run past their bytes');
    out.push(all.subarray(at, at + n));
    at += n;
  }
  return out;
}

// Index snapshots: `<events>/index/waf.snap` (the WAF index) and `access.snap` (the
// rollups), each with the segments it covers (committed size + fingerprint of those bytes).
// Written on close and periodically; read at open so that start-up loads arrays instead of
// parsing gigabytes of JSON (recovery.ts replays whatever the snapshot does not cover).
import path from 'node:path';
import { SnapshotReader, SnapshotWriter, unpackSection, type StoredSection } from './snapshot-file.js';
import type { WafIndexSnapshot } from './waf-index.js';
import type { RollupSnapshotSite } from './access-rollups.js';
import type { SiteWafColumns } from './site-waf-index.js';
import type { PostingsSnapshot } from './postings.js';
import type { StringTableSnapshot } from './string-table.js';
import type { PackedUris, UriColumnSnapshot } from './uri-column.js';
import type { EventKind } from './segment-names.js';

// 5: postings keys as string table refs (u32 sections `.refs`) instead of JSON key strings.
export const SNAPSHOT_VERSION = 5;

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
const U32_COLUMNS = ['ip', 'rule', 'group', 'host'] as const;

export function writeWafSnapshot(file: string, snap: WafIndexSnapshot, coverage: Coverage): Promise<number> {
  const w = new SnapshotWriter();
  const meta: WafMeta = { version: SNAPSHOT_VERSION, coverage, maxId: snap.maxId, sites: [] };
  w.json('tables', { ips: snap.ips, rules: snap.rules, groups: snap.groups, hosts: snap.hosts });
  for (const [id, c] of snap.sites) {
    meta.sites.push({ id, sealed: c.uris.sealed.map((ch) => ({ lower: 'unpack' in ch ? ch.lowered : ch.lower !== null })) });
    const p = `s${id}.`;
    w.typed(p + 'ids', c.ids);
    w.typed(p + 'ts', c.ts);
    for (const col of U32_COLUMNS) w.typed(p + col, c[col]);
    c.uris.sealed.forEach((ch, i) => {
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
    });
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

/** A sealed URI chunk as the snapshot holds it: its text and line offsets, deflated. */
interface StoredUris {
  text: StoredSection;
  offsets: StoredSection;
}

function unpackUris(s: StoredUris): { orig: string; offsets: Uint32Array } {
  const off = unpackSection(s.offsets);
  return { orig: unpackSection(s.text).toString('utf8'), offsets: new Uint32Array(off.buffer, off.byteOffset, off.byteLength / 4) };
}

export function readWafSnapshot(file: string): { snap: WafIndexSnapshot; coverage: Coverage } | null {
  const r = SnapshotReader.open(file);
  if (!r) return null;
  try {
    const meta = r.json<WafMeta>('meta');
    checkVersion(meta.version);
    const tables = r.json<Record<'ips' | 'rules' | 'groups' | 'hosts', StringTableSnapshot>>('tables');
    const postings = (p: string, name: string): PostingsSnapshot => ({
      keyRefs: r.u32(`${p}${name}.refs`),
      heads: r.u32(`${p}${name}.heads`),
      counts: r.u32(`${p}${name}.counts`),
      prev: r.u32(`${p}${name}.prev`),
    });
    const sites: [number, SiteWafColumns][] = meta.sites.map(({ id, sealed }) => {
      const p = `s${id}.`;
      const uris: UriColumnSnapshot = {
        sealed: sealed.map((ch, i): PackedUris => {
          const stored: StoredUris = { text: r.stored(`${p}uri${i}`, 'str'), offsets: r.stored(`${p}off${i}`, 'u32') };
          return { stored, lowered: ch.lower, unpack: () => unpackUris(stored) };
        }),
        open: r.json<string[]>(p + 'open'),
      };
      const cols = {
        ids: r.f64(p + 'ids'),
        ts: r.f64(p + 'ts'),
        ip: r.u32(p + 'ip'),
        rule: r.u32(p + 'rule'),
        group: r.u32(p + 'group'),
        host: r.u32(p + 'host'),
        uris,
        byIp: postings(p, 'byIp'),
        byRule: postings(p, 'byRule'),
        byGroup: postings(p, 'byGroup'),
      };
      return [id, cols];
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

export function writeAccessSnapshot(file: string, sites: readonly RollupSnapshotSite[], coverage: Coverage, maxId: number): Promise<number> {
  const w = new SnapshotWriter();
  const meta: AccessMeta = { version: SNAPSHOT_VERSION, coverage, maxId, sites: [] };
  for (const s of sites) {
    meta.sites.push({ site: s.site, hours: s.hours.length });
    const p = `s${s.site}.`;
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

export function readAccessSnapshot(file: string): { sites: RollupSnapshotSite[]; coverage: Coverage; maxId: number } | null {
  const r = SnapshotReader.open(file);
  if (!r) return null;
  try {
    const meta = r.json<AccessMeta>('meta');
    checkVersion(meta.version);
    const sites = meta.sites.map(({ site }) => {
      const p = `s${site}.`;
      return {
        site,
        hours: r.f64(p + 'hours'),
        requests: r.f64(p + 'requests'),
        blocked: r.f64(p + 'blocked'),
        sketches: readSketches(r, p + 'hour'),
        days: r.f64(p + 'days'),
        daySketches: readSketches(r, p + 'day'),
      };
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

function readSketches(r: SnapshotReader, name: string): Uint8Array[] {
  const lens = r.u32(`${name}.len`);
  const all = r.u8(`${name}.bytes`);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const n of lens) {
    out.push(all.subarray(at, at + n));
    at += n;
  }
  return out;
}

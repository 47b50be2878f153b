// Top lists of a period, read from the segments of the period's days: the rollups keep only
// counts and visitor sketches per hour, and the WAF index no country or status, so a top list
// reads the lines themselves (only the committed bytes, only the site's lines: the scan looks
// for `"site_id":N` before parsing). The cost grows with the period's traffic of the site's
// days; daemon/store/events/README.md ("Top lists") says what that means and what would replace it.
import path from 'node:path';
import type { AnalyticsPeriod } from '../../../shared/schemas/events.js';
import { PERIOD_HOURS } from '../../../shared/schemas/events.js';
import { UNKNOWN_COUNTRY, type TopKind, type TopList } from '../../../shared/schemas/top-lists.js';
import { MS_PER_DAY, MS_PER_HOUR, dayOfMs, segmentFileName, type EventKind } from './segment-names.js';
import { scanSegmentLines } from './segment-scan.js';
import { TopCounter } from './top-counter.js';

export interface TopListQuery {
  site_id: number;
  period: AnalyticsPeriod;
  kind: TopKind;
  limit: number;
  /** "Now" in ms since the epoch; defaults to the store's clock. */
  now?: number;
  /** ISO country of an address, for entries stored without one (ingested); '' when unknown. */
  countryOf?: (ip: string) => string;
}

type Line = Record<string, unknown>;

/** How each kind reads a line: the segment kind, the line's time in ms, its key. */
const READERS: Record<TopKind, { kind: EventKind; timeMs(e: Line): number; key(e: Line, q: TopListQuery): string | undefined }> = {
  ips: { kind: 'access', timeMs: accessTime, key: (e) => str(e.client_ip)?.trim().toLowerCase() },
  uris: { kind: 'access', timeMs: accessTime, key: (e) => str(e.uri)?.split('?', 1)[0] },
  statuses: { kind: 'access', timeMs: accessTime, key: (e) => (typeof e.status === 'number' ? String(e.status) : undefined) },
  countries: { kind: 'access', timeMs: accessTime, key: countryKey },
  rules: { kind: 'waf', timeMs: (e) => (typeof e.timestamp_ms === 'number' ? e.timestamp_ms : NaN), key: (e) => str(e.rule_id) },
};

/**
 * The `limit` most frequent keys of `kind` for the site over the period's hours (the same hours
 * as /analytics: those started by `now`). `committed` holds each segment's committed size.
 */
export async function topList(dir: string, committed: ReadonlyMap<string, number>, query: TopListQuery, now: number): Promise<TopList> {
  const reader = READERS[query.kind];
  const end = Math.ceil(now / MS_PER_HOUR) * MS_PER_HOUR;
  const start = end - PERIOD_HOURS[query.period] * MS_PER_HOUR;
  const counter = new TopCounter();
  const needle = Buffer.from(`"site_id":${query.site_id}`);
  for (let day = dayOfMs(start); day * MS_PER_DAY < end; day++) {
    const file = segmentFileName(reader.kind, day);
    await scanSegmentLines(path.join(dir, file), committed.get(file) ?? 0, needle, (text) => {
      const e = parse(text);
      if (e === null || e.site_id !== query.site_id) return;
      const at = reader.timeMs(e);
      if (!(at >= start && at < end)) return;
      const key = reader.key(e, query);
      if (key === undefined) return;
      if (reader.kind === 'waf') counter.add(key, e.action === 'block' || e.action === 'drop', str(e.group) ?? '');
      else counter.add(key, e.blocked === true);
    });
  }
  return { kind: query.kind, limit: query.limit, total: counter.total, distinct: counter.distinct, exact: counter.exact, items: counter.top(query.limit) };
}

function accessTime(e: Line): number {
  return typeof e.timestamp === 'number' ? e.timestamp * 1000 : NaN;
}

/** The edge stores the country it looked up ('' for none); ingested entries have none, so look it up. */
function countryKey(e: Line, q: TopListQuery): string {
  const stored = str(e.country);
  const ip = str(e.client_ip);
  const code = stored ?? (ip !== undefined && q.countryOf ? q.countryOf(ip.trim()) : '');
  return code === '' ? UNKNOWN_COUNTRY : code.toUpperCase();
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function parse(text: string): Line | null {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null ? (v as Line) : null;
  } catch {
    return null; // a hand-edited line: skipped, as the index skips it
  }
}

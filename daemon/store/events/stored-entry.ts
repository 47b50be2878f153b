// What a segment line must hold for the index and the rollups to use it. Lines that fail
// (hand edits, foreign data) are skipped and counted, never fatal.
import type { WafIndexEntry } from './waf-index.js';
import { dayOfMs } from './segment-names.js';

export interface AccessRollupEntry {
  id: number;
  site_id: number;
  timestamp: number;
  client_ip: string;
  blocked: boolean;
}

const isId = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;
const isSite = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isTime = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isStr = (v: unknown): v is string => typeof v === 'string';

export function wafEntryProblem(v: unknown, day: number): string | null {
  if (typeof v !== 'object' || v === null) return 'not an object';
  const e = v as Record<string, unknown>;
  if (!isId(e.id)) return 'bad id';
  if (!isSite(e.site_id)) return 'bad site_id';
  if (!isTime(e.timestamp_ms)) return 'bad timestamp_ms';
  if (dayOfMs(e.timestamp_ms) !== day) return 'timestamp outside the segment day';
  for (const f of ['client_ip', 'uri', 'rule_id', 'group', 'host'] as const) if (!isStr(e[f])) return `bad ${f}`;
  return null;
}

export const toWafIndexEntry = (v: unknown): WafIndexEntry => {
  const e = v as WafIndexEntry;
  const action = typeof e.action === 'string' ? e.action : undefined;
  return { id: e.id, site_id: e.site_id, timestamp_ms: e.timestamp_ms, client_ip: e.client_ip, uri: e.uri, rule_id: e.rule_id, group: e.group, host: e.host, action };
};

export function accessEntryProblem(v: unknown, day: number): string | null {
  if (typeof v !== 'object' || v === null) return 'not an object';
  const e = v as Record<string, unknown>;
  if (!isId(e.id)) return 'bad id';
  if (!isSite(e.site_id)) return 'bad site_id';
  if (!isTime(e.timestamp)) return 'bad timestamp';
  if (dayOfMs(e.timestamp * 1000) !== day) return 'timestamp outside the segment day';
  if (!isStr(e.client_ip)) return 'bad client_ip';
  if (typeof e.blocked !== 'boolean') return 'bad blocked';
  return null;
}

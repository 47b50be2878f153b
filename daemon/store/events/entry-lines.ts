// Checking entries handed to append and turning them into segment lines. The API layers
// validate with the zod schemas (shared/schemas/events.ts); this is the store's own cheap
// guard for the fields it files and indexes by, so that a caller's bug is a clear rejection
// and never a line that breaks the index. Lines are built as `{"id":N,` + the entry's own
// JSON, which spares a copy of every entry.
import { EventInputError } from '../event-store.js';
import type { NewAccessEntry, NewWafEvent } from '../../../shared/schemas/events.js';

const WAF_STRINGS = ['host', 'client_ip', 'uri', 'method', 'waf_file', 'rule_id', 'severity', 'msg', 'group'] as const;
const ACCESS_STRINGS = ['host', 'client_ip', 'uri', 'method'] as const;

function fail(i: number, field: string, problem: string): never {
  throw new EventInputError(`[${i}] ${field}: ${problem}`, i);
}

function checkCommon(e: unknown, i: number): Record<string, unknown> {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) fail(i, 'entry', 'must be an object');
  const r = e as Record<string, unknown>;
  if (!Number.isSafeInteger(r.site_id) || (r.site_id as number) < 0 || (r.site_id as number) > 0xffffffff) fail(i, 'site_id', 'must be a non-negative integer');
  return r;
}

const isTimestamp = (v: unknown, max: number): boolean => Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= max;
// Year 9999 at the latest: the segment name has a four-digit year.
const MAX_MS = 253_402_300_799_999;

export function checkWafEvent(e: unknown, i: number): asserts e is NewWafEvent {
  const r = checkCommon(e, i);
  if (!isTimestamp(r.timestamp_ms, MAX_MS)) fail(i, 'timestamp_ms', 'must be an integer (Unix time in milliseconds)');
  for (const f of WAF_STRINGS) if (typeof r[f] !== 'string') fail(i, f, 'must be a string');
  if ((r.client_ip as string).length === 0) fail(i, 'client_ip', 'must not be empty');
  if ((r.rule_id as string).length === 0) fail(i, 'rule_id', 'must not be empty');
  if ((r.group as string).length === 0) fail(i, 'group', 'must not be empty');
}

export function checkAccessEntry(e: unknown, i: number): asserts e is NewAccessEntry {
  const r = checkCommon(e, i);
  if (!isTimestamp(r.timestamp, Math.floor(MAX_MS / 1000))) fail(i, 'timestamp', 'must be an integer (Unix time in seconds)');
  for (const f of ACCESS_STRINGS) if (typeof r[f] !== 'string') fail(i, f, 'must be a string');
  if (!Number.isSafeInteger(r.status)) fail(i, 'status', 'must be an integer');
  if (r.blocked !== undefined && typeof r.blocked !== 'boolean') fail(i, 'blocked', 'must be a boolean when present');
}

function withoutId(e: object): object {
  if (!('id' in e)) return e;
  const { id: _ignored, ...rest } = e as Record<string, unknown>;
  return rest;
}

/** The stored line of a WAF event (with its trailing newline). */
export function wafLine(id: number, e: NewWafEvent): string {
  return `{"id":${id},${JSON.stringify(withoutId(e)).slice(1)}\n`;
}

/** Whether an access entry counts as blocked: the proxy says so, or an ingested 403. */
export const isBlocked = (e: NewAccessEntry): boolean => e.blocked ?? e.status === 403;

/** The stored line of an access entry, `blocked` always present. */
export function accessLine(id: number, e: NewAccessEntry): string {
  const json = JSON.stringify(withoutId(e));
  if (e.blocked !== undefined) return `{"id":${id},${json.slice(1)}\n`;
  return `{"id":${id},${json.slice(1, -1)},"blocked":${e.status === 403}}\n`;
}

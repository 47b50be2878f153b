// Checking entries handed to append and turning them into segment lines. The API layers
// validate with the zod schemas (shared/schemas/events.ts); this is the store's own cheap
// guard for the fields it files and indexes by, so that a caller's bug is a clear rejection
// and never a line that breaks the index.
//
// A batch of lines is encoded with ONE JSON.stringify of the whole batch (see encodeLines):
// one call per entry costs ~40% more CPU (call overhead, then joining and flattening 100
// small strings), and serialising is the largest single cost of an append.
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

/** How one kind's entries become stored objects and lines. */
export interface LineFormat<T> {
  /** The stored object: `id` first, then the entry's own fields (a shallow copy). */
  wrap(id: number, e: T): { id: unknown };
  /** The same as one line, built alone (the slow path of encodeLines). */
  line(id: number, e: T): string;
}

export const WAF_LINES: LineFormat<NewWafEvent> = { wrap: (id, e) => ({ id, ...e }), line: wafLine };
export const ACCESS_LINES: LineFormat<NewAccessEntry> = { wrap: (id, e) => ({ id, ...e, blocked: isBlocked(e) }), line: accessLine };

const NEWLINE = 0x0a;
/** Between two stored objects in `JSON.stringify([...])`: `},{"id":`. */
const BOUNDARY = Buffer.from('},{"id":');

/** Whether JSON.stringify writes `o` as an object whose first key is `id`. */
function idFirst(o: object): boolean {
  if (typeof (o as { toJSON?: unknown }).toJSON === 'function') return false;
  for (const k in o) return k === 'id';
  return false;
}

/**
 * The lines of `entries` (ids `ids[i]`), UTF-8, each ending with '\n', byte for byte what
 * `line()` makes of each, in one buffer.
 *
 * Fast path: `JSON.stringify` of the array of stored objects, then each `},{"id":` between
 * two objects becomes `}\n{"id":` (the `,` is patched to a newline in the buffer) and the
 * closing `]` the last newline. Why that is exact: inside a JSON string a `"` is always
 * escaped, so `},{"id":` can only be structural: an object closing, a comma, an object
 * opening with the key `id`. Every stored object starts with `id` (checked: integer-like
 * keys would come first), so the n - 1 boundaries are all there; a count above n - 1 means
 * nested objects in some field made more, and then the slow path (line by line) runs.
 * Throws what JSON.stringify throws (BigInt, cycles).
 */
export function encodeLines<T>(ids: readonly number[], entries: readonly T[], format: LineFormat<T>): Buffer {
  const n = entries.length;
  const stored = new Array<{ id: unknown }>(n);
  let fast = true;
  for (let i = 0; i < n; i++) {
    const o = format.wrap(ids[i], entries[i]);
    // An entry's own `id` would win over ours in the copy: such batches take the slow path.
    if (o.id !== ids[i] || !idFirst(o)) {
      fast = false;
      break;
    }
    stored[i] = o;
  }
  if (fast) {
    const buf = Buffer.from(JSON.stringify(stored));
    let boundaries = 0;
    for (let at = buf.indexOf(BOUNDARY, 1); at >= 0; at = buf.indexOf(BOUNDARY, at + BOUNDARY.length)) {
      buf[at + 1] = NEWLINE;
      boundaries++;
    }
    if (boundaries === n - 1) {
      buf[buf.length - 1] = NEWLINE;
      return buf.subarray(1);
    }
  }
  let text = '';
  for (let i = 0; i < n; i++) text += format.line(ids[i], entries[i]);
  return Buffer.from(text);
}

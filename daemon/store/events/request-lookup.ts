// The events of one request, read from the segments (the index keeps only what /waf-logs
// filters on; the message, matched variable and data, method, action, request id and user
// agent are only in the segment lines). A request's events all carry its arrival time, so they
// are in one day's segment: the lookup reads segments newest day first and stops at the first
// day that has the event, then reads that day's access segment for the response status.
import path from 'node:path';
import type { StoredWafEvent } from '../../../shared/schemas/events.js';
import { listSegments, segmentFileName } from './segment-names.js';
import { scanSegmentLines } from './segment-scan.js';

export type RequestKey = { id: number } | { request_id: string };

export interface RequestEvents {
  /** The request's WAF events of the site, oldest id first; empty when nothing matched. */
  events: StoredWafEvent[];
  /** The status the edge answered with, from the request's access entry, when one was stored. */
  status?: number;
}

/** The request ids the edge hands out (randomUUID): searched as a request, not as a URI. */
export const REQUEST_ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function findRequestEvents(
  dir: string,
  committed: ReadonlyMap<string, number>,
  siteId: number,
  key: RequestKey,
): Promise<RequestEvents> {
  const days = listSegments(dir, 'waf').reverse();
  for (const { day, file } of days) {
    const limit = committed.get(file) ?? 0;
    const found = 'id' in key
      ? await byId(path.join(dir, file), limit, siteId, key.id)
      : await byRequestId(path.join(dir, file), limit, siteId, key.request_id.toLowerCase());
    if (found.length === 0) continue;
    const status = await accessStatus(dir, committed, day, siteId, found[0].request_id);
    return status === undefined ? { events: found } : { events: found, status };
  }
  return { events: [] };
}

async function byId(file: string, limit: number, siteId: number, id: number): Promise<StoredWafEvent[]> {
  // Every line starts with `{"id":N,`; inside a JSON string the quotes would be escaped.
  let hit: StoredWafEvent | undefined;
  await scanSegmentLines(file, limit, Buffer.from(`{"id":${id},`), (line) => {
    const e = parse(line);
    if (e?.id === id && e.site_id === siteId) hit = e;
  });
  if (!hit) return [];
  // An event without a request id (ingested through the API) is a request of its own.
  if (hit.request_id === undefined) return [hit];
  return byRequestId(file, limit, siteId, hit.request_id);
}

async function byRequestId(file: string, limit: number, siteId: number, requestId: string): Promise<StoredWafEvent[]> {
  const out: StoredWafEvent[] = [];
  await scanSegmentLines(file, limit, Buffer.from(`"request_id":${JSON.stringify(requestId)}`), (line) => {
    const e = parse(line);
    if (e && e.site_id === siteId && e.request_id === requestId) out.push(e);
  });
  return out.sort((a, b) => a.id - b.id);
}

async function accessStatus(dir: string, committed: ReadonlyMap<string, number>, day: number, siteId: number, requestId: string | undefined): Promise<number | undefined> {
  if (requestId === undefined) return undefined;
  const file = segmentFileName('access', day);
  let status: number | undefined;
  await scanSegmentLines(path.join(dir, file), committed.get(file) ?? 0, Buffer.from(`"request_id":${JSON.stringify(requestId)}`), (line) => {
    const e = parse(line) as { site_id?: unknown; request_id?: unknown; status?: unknown } | null;
    if (e && e.site_id === siteId && e.request_id === requestId && typeof e.status === 'number') status = e.status;
  });
  return status;
}

function parse(line: string): StoredWafEvent | null {
  try {
    const v: unknown = JSON.parse(line);
    return typeof v === 'object' && v !== null ? (v as StoredWafEvent) : null;
  } catch {
    return null; // a hand-edited line: skipped, as the index skips it
  }
}

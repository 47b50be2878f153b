import type { AccessEntry } from './events.js';

// Access entries on the cluster IPC channel (cluster-ipc.ts) as positional rows instead of
// objects: node's IPC channel JSON-encodes every message, and one access entry per request
// crosses it. Without the 15 keys per entry the batch is ~30 % smaller, and both sides spend
// less: the worker's JSON.stringify and the primary's JSON.parse, plus the pipe bytes between
// (figures in bench/proxy/README.md). A missing optional field travels as null.

export type AccessRow = [
  timestamp: number, host: string, clientIp: string, uri: string, method: string, status: number, bytesSent: number,
  userAgent: string | null, referer: string | null, requestTime: number, upstreamTime: number | null, blocked: boolean,
  siteId: number, requestId: string, country: string, upstreamError: string | null,
];

export function accessRows(entries: readonly AccessEntry[]): AccessRow[] {
  const rows = new Array<AccessRow>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    rows[i] = [e.timestamp, e.host, e.client_ip, e.uri, e.method, e.status, e.bytes_sent, e.user_agent ?? null,
      e.referer ?? null, e.request_time, e.upstream_time ?? null, e.blocked, e.site_id, e.request_id, e.country, e.upstream_error ?? null];
  }
  return rows;
}

/** The entries back, with the same keys (optional ones only when present) as the worker had. */
export function accessEntriesOf(rows: readonly AccessRow[]): AccessEntry[] {
  const entries = new Array<AccessEntry>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const e: AccessEntry = {
      timestamp: r[0], host: r[1], client_ip: r[2], uri: r[3], method: r[4], status: r[5], bytes_sent: r[6],
      request_time: r[9], blocked: r[11], site_id: r[12], request_id: r[13], country: r[14],
    };
    if (r[7] !== null) e.user_agent = r[7];
    if (r[8] !== null) e.referer = r[8];
    if (r[10] !== null) e.upstream_time = r[10];
    if (r[15] !== null) e.upstream_error = r[15];
    entries[i] = e;
  }
  return entries;
}

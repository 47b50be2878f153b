// One spooled WAF event as a waf_events row. The search keys are derived here exactly as the JSONL
// index derives them (string-table.ts, ip-address.ts, uri-column.ts), so that a search term finds
// the same events in PostgreSQL as in the single-node store: canonical client IP (IPv4-mapped IPv6
// folded), lower-cased rule id and group, the URI on one line and lower-cased with the index's own
// rule for exotic case maps, and its percent-decoded form only when it has something to decode.
import type { StoredWafEvent } from '../../../shared/schemas/events.js';
import { canonicalIp } from '../../store/events/ip-address.js';
import { decodeUriLeniently } from '../../store/events/uri-column.js';

export interface WafEventRow {
  ts: string;
  site_id: number;
  local_id: number;
  client_ip: string | null;
  rule_key: string;
  grp_key: string;
  uri_key: string;
  uri_decoded: string | null;
  request_id: string | null;
  doc: string;
}

/** The URI as the index keeps it: line breaks as spaces (a line of its column). */
export const uriOnOneLine = (uri: string): string => (uri.includes('\n') ? uri.replace(/\n/g, ' ') : uri);

/**
 * PostgreSQL text cannot hold U+0000, which attack traffic sends (`%00` decoded, raw NUL in a
 * URI). Keys carry U+FFFD in its place and needles get the same mapping (pg-waf-search.ts); the
 * event itself is kept intact in `doc` (type json keeps the `\u0000` escape as text).
 */
export const withoutNul = (s: string): string => (s.includes('\0') ? s.replaceAll('\0', '\uFFFD') : s);

const foldSameLength = (s: string): string => {
  const l = s.toLowerCase();
  return l.length === s.length ? l : s;
};

export function wafEventRow(e: StoredWafEvent): WafEventRow {
  const uri = uriOnOneLine(e.uri);
  const encoded = uri.includes('%') || uri.includes('+');
  const { id: _local, ...doc } = e;
  return {
    ts: new Date(e.timestamp_ms).toISOString(),
    site_id: e.site_id,
    local_id: e.id,
    client_ip: canonicalIp(e.client_ip),
    rule_key: withoutNul(e.rule_id.toLowerCase()),
    grp_key: withoutNul(e.group.toLowerCase()),
    uri_key: withoutNul(foldSameLength(uri)),
    uri_decoded: encoded ? withoutNul(decodeUriLeniently(uri).toLowerCase()) : null,
    // As stored: the JSONL lookup compares request ids exactly (the edge's are lower-case UUIDs).
    request_id: typeof e.request_id === 'string' ? withoutNul(e.request_id) : null,
    doc: JSON.stringify(doc),
  };
}

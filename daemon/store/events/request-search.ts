// `search` with a request id (the one on the block page): the index has no request ids, so the
// page is made from the request's events as read from its segment (request-lookup.ts). One
// request has a handful of events, so one page holds them; pages and totals follow /waf-logs.
import type { WafLogQuery, WafLogResult } from '../event-store.js';
import type { StoredWafEvent, WafLogEntry } from '../../../shared/schemas/events.js';
import { eventAction } from './event-action.js';

export function requestSearchPage(events: readonly StoredWafEvent[], q: WafLogQuery, asOf: number): WafLogResult {
  const visible = events.filter((e) => e.id <= asOf).sort((a, b) => b.id - a.id);
  const start = (q.page - 1) * q.per_page;
  const logs = visible.slice(start, start + q.per_page).map((e) => entryOf(e, q.with_action === true));
  const total = visible.length;
  return { logs, pagination: { page: q.page, per_page: q.per_page, total, total_pages: Math.ceil(total / q.per_page) }, as_of_id: asOf };
}

function entryOf(e: StoredWafEvent, withAction: boolean): WafLogEntry {
  const entry: WafLogEntry = {
    id: e.id, event_timestamp: new Date(e.timestamp_ms).toISOString(), client_ip: e.client_ip, uri: e.uri,
    waf_rule_id: e.rule_id, group: e.group, host: e.host,
  };
  if (withAction) entry.action = eventAction(typeof e.action === 'string' ? e.action : undefined, e.group, e.rule_id);
  return entry;
}

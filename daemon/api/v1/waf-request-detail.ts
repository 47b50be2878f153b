// Builds the GET /waf-logs/{id} answer from the stored events of one request.
import type { StoredWafEvent } from '../../../shared/schemas/events.js';
import type { RequestAction, WafRequestDetail, WafRequestRule } from '../../../shared/schemas/waf-request.js';
import { eventAction } from '../../store/events/event-action.js';
import { isSecretVariable, maskSecret } from './secret-mask.js';
import { shownText } from './shown-text.js';

/** CRS 949110 reports the request's total: "Inbound Anomaly Score Exceeded (Total Score: 10)". */
const TOTAL_SCORE_RE = /Total Score: (\d+)/;

export function requestDetail(events: readonly StoredWafEvent[], status: number | undefined, inboundThreshold: number): WafRequestDetail {
  const first = events[0];
  return {
    request_id: first.request_id ?? null,
    event_timestamp: new Date(first.timestamp_ms).toISOString(),
    host: first.host,
    client_ip: first.client_ip,
    country: first.country ? first.country : null,
    method: first.method,
    uri: first.uri,
    status: status ?? null,
    action: requestAction(events),
    user_agent: first.user_agent ?? null,
    anomaly: anomalyOf(events, inboundThreshold),
    rules: events.map(ruleOf),
  };
}

/** The edge stores `block` on the match that refused the request, `log` on the ones that passed. */
export function requestAction(events: readonly StoredWafEvent[]): RequestAction {
  const refusing = events.find((e) => e.action === 'block' || e.action === 'drop');
  if (refusing) return eventAction(refusing.action, refusing.group, refusing.rule_id);
  // Events ingested from elsewhere carry no action: what was done is not known.
  return events.some((e) => e.action === 'log') ? 'detected' : 'unknown';
}

function anomalyOf(events: readonly StoredWafEvent[], threshold: number): WafRequestDetail['anomaly'] {
  for (const e of events) {
    const m = e.rule_id === '949110' ? TOTAL_SCORE_RE.exec(e.msg) : null;
    if (m) return { inbound_score: Number(m[1]), inbound_threshold: threshold };
  }
  return null;
}

function ruleOf(e: StoredWafEvent): WafRequestRule {
  const data = e.matched_data === undefined ? null : shownText(isSecretVariable(e.matched_var) ? maskSecret(e.matched_data) : e.matched_data);
  return {
    id: e.id, rule_id: e.rule_id, group: e.group, msg: e.msg, severity: e.severity, action: e.action ?? null,
    matched_var: e.matched_var ?? null, matched_data: data, tags: tagsOf(e), file: e.waf_file,
  };
}

/** Stored tags; events stored before tags were kept (or a hand-edited line) have none. */
function tagsOf(e: StoredWafEvent): string[] {
  const tags: unknown = e.tags;
  return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [];
}

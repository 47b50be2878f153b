// One request explained, as lines of text: `wafctl logs show` prints them and the TUI's detail
// pane shows them, so the two never disagree.
import type { WafRequestDetail } from '../shared/schemas/waf-request.js';

export function requestFields(d: WafRequestDetail): Array<[string, string]> {
  return [
    ['time', d.event_timestamp],
    ['site', d.host],
    ['client', d.country ? `${d.client_ip} (${d.country})` : d.client_ip],
    ['request', `${d.method} ${d.uri}`],
    ['action', d.action],
    ['status', d.status === null ? '-' : String(d.status)],
    ['request id', d.request_id ?? '- (not recorded: the event was ingested)'],
    ['user agent', d.user_agent ?? '-'],
    ['anomaly score', d.anomaly ? `${d.anomaly.inbound_score} (site threshold ${d.anomaly.inbound_threshold})` : '-'],
  ];
}

export function ruleLines(d: WafRequestDetail): string[] {
  const out: string[] = [];
  for (const r of d.rules) {
    out.push(`rule ${r.rule_id} [${r.group}] ${r.severity}${r.action ? ` ${r.action}` : ''}: ${r.msg}`);
    if (r.matched_var !== null) out.push(`  matched ${r.matched_var}${r.matched_data !== null ? ` = ${r.matched_data}` : ''}`);
    if (r.tags.length > 0) out.push(`  tags ${r.tags.join(', ')}`);
    out.push(`  file ${r.file}  (event ${r.id})`);
  }
  return out;
}

export function requestDetailText(d: WafRequestDetail): string {
  const fields = requestFields(d);
  const width = Math.max(...fields.map(([k]) => k.length));
  const head = fields.map(([k, v]) => `${k.padEnd(width)}  ${v}`);
  return [...head, '', `${d.rules.length} rule${d.rules.length === 1 ? '' : 's'} matched:`, ...ruleLines(d)].join('\n') + '\n';
}

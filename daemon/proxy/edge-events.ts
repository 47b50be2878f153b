import type { Block } from './checks/outcome.js';
import { checkFile } from './checks/outcome.js';
import type { EdgeRequest } from './edge-request.js';
import type { AccessEntry, WafEvent } from './events.js';
import type { RuleMatch } from './inspector.js';
import { byteText } from './byte-text.js';

// Turns check outcomes and engine matches into the events of events.ts.

export function blockEvent(req: EdgeRequest, block: Block): WafEvent {
  return base(req, {
    waf_file: checkFile(block.group), rule_id: block.ruleId, severity: block.severity, msg: block.msg,
    group: block.group, action: 'block', matched_var: block.matchedVar, matched_data: block.matchedData,
  });
}

export function ruleEvent(req: EdgeRequest, match: RuleMatch, blocked: boolean): WafEvent {
  return base(req, {
    waf_file: match.file, rule_id: match.ruleId, severity: match.severity, msg: match.msg, group: match.group,
    action: blocked ? 'block' : 'log', matched_var: match.matchedVar, matched_data: match.matchedData, tags: match.tags,
  });
}

type Specific = Pick<WafEvent, 'waf_file' | 'rule_id' | 'severity' | 'msg' | 'group' | 'action' | 'matched_var' | 'matched_data'> & {
  tags?: readonly string[];
};

function base(req: EdgeRequest, s: Specific): WafEvent {
  const e: WafEvent = {
    timestamp_ms: req.receivedAt, host: req.host, client_ip: req.client.text, uri: req.uri, method: req.method,
    waf_file: s.waf_file, rule_id: s.rule_id, severity: s.severity, msg: byteText(s.msg),
    group: s.group, site_id: req.site.id, request_id: req.requestId, action: s.action, country: req.country,
  };
  if (req.userAgent) e.user_agent = byteText(req.userAgent);
  if (req.referer) e.referer = req.referer;
  // Cut at 512 bytes before decoding: a sequence cut in two shows as \xNN.
  if (s.matched_var !== undefined) e.matched_var = byteText(s.matched_var);
  if (s.matched_data !== undefined) e.matched_data = byteText(s.matched_data.slice(0, 512));
  // A copy: the engine's tag list belongs to the compiled rule and is shared by every match.
  if (s.tags !== undefined && s.tags.length > 0) e.tags = s.tags.map(byteText);
  return e;
}

export interface Completion {
  status: number;
  bytesSent: number;
  requestTimeS: number;
  upstreamTimeS?: number;
  upstreamError?: string;
  blocked: boolean;
}

export function accessEntry(req: EdgeRequest, c: Completion): AccessEntry {
  const e: AccessEntry = {
    timestamp: Math.floor(req.receivedAt / 1000), host: req.host, client_ip: req.client.text, uri: req.uri,
    method: req.method, status: c.status, bytes_sent: c.bytesSent, request_time: round6(c.requestTimeS),
    blocked: c.blocked, site_id: req.site.id, request_id: req.requestId, country: req.country,
  };
  if (req.userAgent) e.user_agent = req.userAgent;
  if (req.referer) e.referer = req.referer;
  if (c.upstreamTimeS !== undefined) e.upstream_time = round6(c.upstreamTimeS);
  if (c.upstreamError !== undefined) e.upstream_error = c.upstreamError;
  return e;
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

import type { Waf } from '../engine/waf.js';
import type { InspectedRequest, RequestInspector, RuleMatch, Verdict } from '../proxy/inspector.js';
import type { Severity } from '../proxy/events.js';
import type { RuleGroups } from './rule-groups.js';

// The edge's RequestInspector backed by the SecLang engine: one transaction per request through
// phases 1 and 2, its logged matches as WAF events, its interruption as the block. A site in
// detect mode is inspected the same way and never blocked. Rule counters are the TX variables
// `wafctl_counter_<name>` a rule set (see proxy/inspector.ts).

const COUNTER_PREFIX = 'wafctl_counter_';
const CMS_FIRST_ID = 200000;
const CMS_LAST_ID = 200999;

export function createEngineInspector(groups: RuleGroups): RequestInspector {
  return {
    wantsBody: () => true,
    inspect: (request) => inspect(groups.forParanoia(request.site.paranoia), request),
  };
}

function inspect(waf: Waf, request: InspectedRequest): Verdict | null {
  const tx = waf.newTransaction({
    remoteAddr: request.clientAddr,
    remotePort: request.clientPort,
    serverAddr: request.serverAddr,
    serverPort: request.serverPort,
    method: request.method,
    uri: request.uri,
    protocol: request.protocol,
    // Node decoded header values as UTF-8; the engine reads bytes (engine/CONTRACT.md).
    headers: request.headers.map(([name, value]) => [name, Buffer.from(value, 'utf8').toString('latin1')] as [string, string]),
    body: request.body ?? undefined,
  });
  const interruption = tx.processRequest();
  const matches: RuleMatch[] = [];
  for (const match of tx.matches) {
    if (match.msg === '') continue; // bookkeeping rules (scores, flags) log nothing
    matches.push({
      ruleId: String(match.id),
      group: match.id >= CMS_FIRST_ID && match.id <= CMS_LAST_ID ? 'cms' : 'crs',
      file: match.file,
      msg: match.msg,
      severity: severityOf(match.severity),
      matchedVar: match.matchedVarName || undefined,
      matchedData: match.data || undefined,
    });
  }
  const counters: string[] = [];
  for (const entry of tx.tx.entries()) if (entry.key.startsWith(COUNTER_PREFIX)) counters.push(entry.key.slice(COUNTER_PREFIX.length));
  if (interruption === null && matches.length === 0 && counters.length === 0) return null;
  return { block: interruption !== null && request.site.mode === 'on', matches, counters };
}

function severityOf(name: string): Severity {
  if (name === 'WARNING') return 'WARNING';
  if (name === 'NOTICE' || name === 'INFO' || name === 'DEBUG' || name === '') return 'NOTICE';
  return 'CRITICAL';
}

// Variables of the transaction's own state: collections, matches, time, identifiers.
import { keyed, scalar, type VariableDefinition } from './definition.js';
import type { VariableContext } from './context.js';

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function persistent(name: string): VariableDefinition {
  return keyed(name, (c) => c.persistent(name));
}

function ruleEntries(c: VariableContext) {
  const rule = c.rule;
  if (rule === undefined) return [];
  const out = [{ key: 'id', value: String(rule.id) }];
  if (rule.rev !== undefined) out.push({ key: 'rev', value: rule.rev });
  if (rule.severity !== undefined) out.push({ key: 'severity', value: String(rule.severity) });
  if (rule.ver !== undefined) out.push({ key: 'ver', value: rule.ver });
  if (rule.msgText !== undefined) out.push({ key: 'msg', value: rule.msgText });
  if (rule.logdataText !== undefined) out.push({ key: 'logdata', value: rule.logdataText });
  return out;
}

export const stateVariables: VariableDefinition[] = [
  keyed('TX', (c) => c.tx),
  persistent('IP'),
  persistent('GLOBAL'),
  persistent('SESSION'),
  persistent('USER'),
  persistent('RESOURCE'),
  keyed('GEO', (c) => c.geo),
  keyed('ENV', (c) => c.env),
  {
    name: 'RULE',
    collection: true,
    entries: ruleEntries,
    byKey: (c, key) => ruleEntries(c).filter((e) => e.key === key),
  },
  scalar('MATCHED_VAR', (c) => c.matchedVar?.value),
  scalar('MATCHED_VAR_NAME', (c) => c.matchedVar?.name),
  {
    name: 'MATCHED_VARS',
    collection: true,
    entries: (c) => c.matchedVars.map((m) => ({ key: m.name, value: m.value })),
  },
  {
    name: 'MATCHED_VARS_NAMES',
    collection: true,
    entries: (c) => c.matchedVars.map((m) => ({ key: m.name, value: m.name })),
  },
  scalar('UNIQUE_ID', (c) => c.uniqueId),
  scalar('DURATION', (c) => Math.floor(c.durationMicros())),
  scalar('HIGHEST_SEVERITY', (c) => c.highestSeverity),
  scalar('SESSIONID', (c) => c.sessionId),
  scalar('USERID', (c) => c.userId),
  scalar('WEBAPPID', (c) => c.webAppId),
  scalar('MODSEC_BUILD', () => '020907100'),
  scalar('TIME', (c) => {
    const d = new Date(c.startedAt);
    return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  }),
  scalar('TIME_EPOCH', (c) => Math.floor(c.startedAt / 1000)),
  scalar('TIME_YEAR', (c) => new Date(c.startedAt).getFullYear()),
  scalar('TIME_MON', (c) => new Date(c.startedAt).getMonth()),
  scalar('TIME_DAY', (c) => new Date(c.startedAt).getDate()),
  scalar('TIME_HOUR', (c) => new Date(c.startedAt).getHours()),
  scalar('TIME_MIN', (c) => new Date(c.startedAt).getMinutes()),
  scalar('TIME_SEC', (c) => new Date(c.startedAt).getSeconds()),
  scalar('TIME_WDAY', (c) => new Date(c.startedAt).getDay()),
];

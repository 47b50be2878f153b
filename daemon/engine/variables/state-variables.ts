// Variables of the transaction's own state: collections, matches, time, identifiers.
import { keyed, mutable, scalar, stable, type VariableDefinition } from './definition.js';
import { VarEntry } from '../collections/keyed-list.js';
import type { VariableContext } from './context.js';

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function persistent(name: string): VariableDefinition {
  return mutable(name, (c) => c.persistent(name));
}

function ruleEntries(c: VariableContext) {
  const rule = c.rule;
  if (rule === undefined) return [];
  const out = [new VarEntry('id', String(rule.id))];
  if (rule.rev !== undefined) out.push(new VarEntry('rev', rule.rev));
  if (rule.severity !== undefined) out.push(new VarEntry('severity', String(rule.severity)));
  if (rule.ver !== undefined) out.push(new VarEntry('ver', rule.ver));
  if (rule.msgText !== undefined) out.push(new VarEntry('msg', rule.msgText));
  if (rule.logdataText !== undefined) out.push(new VarEntry('logdata', rule.logdataText));
  return out;
}

/** The RULE field `key` (as ruleEntries names them), or undefined. */
function ruleValue(c: VariableContext, key: string): string | undefined {
  const rule = c.rule;
  if (rule === undefined) return undefined;
  switch (key) {
    case 'id':
      return String(rule.id);
    case 'rev':
      return rule.rev;
    case 'severity':
      return rule.severity === undefined ? undefined : String(rule.severity);
    case 'ver':
      return rule.ver;
    case 'msg':
      return rule.msgText;
    case 'logdata':
      return rule.logdataText;
    default:
      return undefined;
  }
}

export const stateVariables: VariableDefinition[] = [
  mutable('TX', (c) => c.tx),
  persistent('IP'),
  persistent('GLOBAL'),
  persistent('SESSION'),
  persistent('USER'),
  persistent('RESOURCE'),
  mutable('GEO', (c) => c.geo),
  mutable('ENV', (c) => c.env),
  {
    name: 'RULE',
    collection: true,
    entries: ruleEntries,
    // %{rule.id} and %{rule.msg} expand on every match of CRS's scoring setvars: one entry, not all.
    byKey: (c, key) => {
      const value = ruleValue(c, key);
      return value === undefined ? [] : [new VarEntry(key, value)];
    },
  },
  scalar('MATCHED_VAR', (c) => c.matchedVar?.value),
  scalar('MATCHED_VAR_NAME', (c) => c.matchedVar?.name),
  {
    name: 'MATCHED_VARS',
    collection: true,
    entries: (c) => c.matchedVars.map((m) => new VarEntry(m.name, m.value)),
  },
  {
    name: 'MATCHED_VARS_NAMES',
    collection: true,
    entries: (c) => c.matchedVars.map((m) => new VarEntry(m.name, m.name)),
  },
  stable(scalar('UNIQUE_ID', (c) => c.uniqueId)),
  scalar('DURATION', (c) => Math.floor(c.durationMicros())),
  scalar('HIGHEST_SEVERITY', (c) => c.highestSeverity),
  scalar('SESSIONID', (c) => c.sessionId),
  scalar('USERID', (c) => c.userId),
  stable(scalar('WEBAPPID', (c) => c.webAppId)),
  stable(scalar('MODSEC_BUILD', () => '020907100')),
  stable(scalar('TIME', (c) => {
    const d = new Date(c.startedAt);
    return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  })),
  stable(scalar('TIME_EPOCH', (c) => Math.floor(c.startedAt / 1000))),
  stable(scalar('TIME_YEAR', (c) => new Date(c.startedAt).getFullYear())),
  stable(scalar('TIME_MON', (c) => new Date(c.startedAt).getMonth())),
  stable(scalar('TIME_DAY', (c) => new Date(c.startedAt).getDate())),
  stable(scalar('TIME_HOUR', (c) => new Date(c.startedAt).getHours())),
  stable(scalar('TIME_MIN', (c) => new Date(c.startedAt).getMinutes())),
  stable(scalar('TIME_SEC', (c) => new Date(c.startedAt).getSeconds())),
  stable(scalar('TIME_WDAY', (c) => new Date(c.startedAt).getDay())),
];

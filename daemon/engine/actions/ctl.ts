// ctl:option=value — changes engine settings for the rest of this transaction only. Every
// option and value is checked at load; the work at match time is a field write or a list push.
import type { ActionDefinition } from './action.js';
import type { ActionContext, EngineMode, RulePredicate } from './context.js';
import type { Effect } from '../rules/effect.js';
import { parseIdRanges, idInRanges, type IdRange } from '../rules/id-range.js';
import { parseTargets, type TargetExclusion } from '../variables/targets.js';
import type { SourceLocation } from '../seclang/errors.js';

function onOff(option: string, value: string): boolean {
  const v = value.toLowerCase();
  if (v === 'on') return true;
  if (v === 'off') return false;
  throw new Error(`ctl:${option} expects On or Off, got "${value}"`);
}

function exclusionOf(text: string, where: SourceLocation): TargetExclusion {
  const { targets } = parseTargets(text, where);
  if (targets.length !== 1) throw new Error(`expected one target after ';', got "${text}"`);
  const t = targets[0];
  return { variableName: t.variable.name, keyLower: t.keyLower ?? t.expression?.toLowerCase(), keyRegex: t.keyRegex, keyTest: t.keyTest };
}

function splitSelector(value: string, option: string): [string, string] {
  const semi = value.indexOf(';');
  if (semi <= 0) throw new Error(`ctl:${option} expects selector;TARGET, got "${value}"`);
  return [value.slice(0, semi), value.slice(semi + 1)];
}

function patternOf(text: string): RegExp {
  try {
    return new RegExp(text);
  } catch (err) {
    throw new Error(`bad pattern "${text}": ${(err as Error).message}`);
  }
}

function byId(ranges: IdRange[]): RulePredicate {
  return (rule) => idInRanges(rule.id, ranges);
}

function byTag(re: RegExp): RulePredicate {
  return (rule) => rule.tags.some((t) => re.test(t));
}

function byMsg(re: RegExp): RulePredicate {
  return (rule) => rule.msg !== undefined && re.test(rule.msg.text);
}

const MODES: Record<string, EngineMode> = { on: 'On', off: 'Off', detectiononly: 'DetectionOnly' };
const PROCESSORS = new Set(['URLENCODED', 'MULTIPART', 'JSON', 'XML']);

function compileCtl(option: string, value: string, where: SourceLocation): Effect {
  switch (option.toLowerCase()) {
    case 'ruleengine': {
      const mode = MODES[value.toLowerCase()];
      if (mode === undefined) throw new Error(`ctl:ruleEngine expects On, Off or DetectionOnly, got "${value}"`);
      return (tx) => { tx.settings.ruleEngine = mode; };
    }
    case 'ruleremovebyid': {
      const predicate = byId(parseIdRanges(value));
      return (tx) => tx.removeRules(predicate);
    }
    case 'ruleremovebytag': {
      const predicate = byTag(patternOf(value));
      return (tx) => tx.removeRules(predicate);
    }
    case 'ruleremovebymsg': {
      const predicate = byMsg(patternOf(value));
      return (tx) => tx.removeRules(predicate);
    }
    case 'ruleremovetargetbyid': {
      const [ids, target] = splitSelector(value, option);
      const predicate = byId(parseIdRanges(ids));
      const exclusion = exclusionOf(target, where);
      return (tx) => tx.removeTargets(predicate, exclusion);
    }
    case 'ruleremovetargetbytag': {
      const [tag, target] = splitSelector(value, option);
      const predicate = byTag(patternOf(tag));
      const exclusion = exclusionOf(target, where);
      return (tx) => tx.removeTargets(predicate, exclusion);
    }
    case 'ruleremovetargetbymsg': {
      const [msg, target] = splitSelector(value, option);
      const predicate = byMsg(patternOf(msg));
      const exclusion = exclusionOf(target, where);
      return (tx) => tx.removeTargets(predicate, exclusion);
    }
    case 'requestbodyprocessor': {
      const processor = value.toUpperCase();
      if (!PROCESSORS.has(processor)) throw new Error(`ctl:requestBodyProcessor: unknown processor "${value}"`);
      return (tx) => { tx.settings.requestBodyProcessor = processor; };
    }
    case 'forcerequestbodyvariable': {
      const on = onOff(option, value);
      return (tx) => { tx.settings.forceRequestBodyVariable = on; };
    }
    case 'requestbodyaccess': {
      const on = onOff(option, value);
      return (tx) => { tx.settings.requestBodyAccess = on; };
    }
    case 'responsebodyaccess': {
      const on = onOff(option, value);
      return (tx) => { tx.settings.responseBodyAccess = on; };
    }
    case 'requestbodylimit': {
      if (!/^\d+$/.test(value)) throw new Error(`ctl:requestBodyLimit expects a byte count, got "${value}"`);
      const limit = Number(value);
      return (tx) => { tx.settings.requestBodyLimit = limit; };
    }
    case 'auditengine': {
      if (!/^(on|off|relevantonly)$/i.test(value)) throw new Error(`ctl:auditEngine expects On, Off or RelevantOnly, got "${value}"`);
      return (tx) => { tx.settings.auditEngine = value; };
    }
    case 'auditlogparts': {
      if (!/^[+-]?[A-KZ]+$/.test(value)) throw new Error(`ctl:auditLogParts: bad parts "${value}"`);
      return (tx) => {
        const s = tx.settings;
        if (value.startsWith('+')) s.auditLogParts += value.slice(1);
        else if (value.startsWith('-')) s.auditLogParts = [...s.auditLogParts].filter((p) => !value.includes(p)).join('');
        else s.auditLogParts = value;
      };
    }
    case 'debugloglevel':
      return () => {};
    default:
      throw new Error(`unknown ctl option "${option}"`);
  }
}

export const ctlAction: ActionDefinition = {
  name: 'ctl',
  kind: 'nondisruptive',
  reach: 'outside',
  param: 'required',
  apply(rule, param, ctx) {
    const eq = param!.indexOf('=');
    if (eq <= 0) throw new Error(`ctl expects option=value, got "${param}"`);
    rule.effects.push(compileCtl(param!.slice(0, eq).trim(), param!.slice(eq + 1).trim(), ctx.location));
  },
};

export type { ActionContext };

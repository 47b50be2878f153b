// SecRuleRemoveById/ByTag/ByMsg, SecRuleUpdateTargetById/ByTag/ByMsg and
// SecRuleUpdateActionById: configuration-time edits of rules defined above them.
import type { RuleSetBuilder } from './builder.js';
import type { Rule } from './rule.js';
import { parseIdRanges, idInRanges } from './id-range.js';
import { parseTargets } from '../variables/targets.js';
import { SecLangError, type SourceLocation } from '../seclang/errors.js';

function ranges(args: readonly string[], where: SourceLocation) {
  try {
    return parseIdRanges(args.join(' '));
  } catch (err) {
    throw new SecLangError(where, (err as Error).message);
  }
}

function regex(text: string, where: SourceLocation): RegExp {
  try {
    return new RegExp(text);
  } catch (err) {
    throw new SecLangError(where, `bad pattern "${text}": ${(err as Error).message}`);
  }
}

function msgText(rule: Rule): string {
  return rule.msg?.text ?? '';
}

/** A selector that matched no rule: recorded, since such a line is most often a typo. */
function noteIfNone(b: RuleSetBuilder, matched: number, directive: string, selector: string, where: SourceLocation): void {
  if (matched === 0) b.withoutEffect.push({ location: where, directive: `${directive} ${selector}` });
}

export function removeById(b: RuleSetBuilder, args: readonly string[], where: SourceLocation): void {
  const list = ranges(args, where);
  noteIfNone(b, b.removeStarters((r) => idInRanges(r.id, list)), 'SecRuleRemoveById', args.join(' '), where);
}

export function removeByTag(b: RuleSetBuilder, args: readonly string[], where: SourceLocation): void {
  const res = args.map((a) => regex(a, where));
  noteIfNone(b, b.removeStarters((r) => r.tags.some((t) => res.some((re) => re.test(t)))), 'SecRuleRemoveByTag', args.join(' '), where);
}

export function removeByMsg(b: RuleSetBuilder, args: readonly string[], where: SourceLocation): void {
  const res = args.map((a) => regex(a, where));
  noteIfNone(b, b.removeStarters((r) => res.some((re) => re.test(msgText(r)))), 'SecRuleRemoveByMsg', args.join(' '), where);
}

function updateTargets(b: RuleSetBuilder, directive: string, rules: Rule[], args: readonly string[], where: SourceLocation): void {
  if (args.length < 2 || args.length > 3) throw new SecLangError(where, 'expects a selector, targets and an optional replaced target');
  const parsed = parseTargets(args[1], where);
  noteIfNone(b, rules.length, directive, args[0], where);
  for (const rule of rules) {
    if (args.length === 3) {
      const index = rule.targets.findIndex((t) => t.text.toLowerCase() === args[2].toLowerCase());
      if (index < 0) throw new SecLangError(where, `rule ${rule.id} has no target ${args[2]} to replace`);
      rule.targets.splice(index, 1, ...parsed.targets);
    } else {
      rule.targets.push(...parsed.targets);
    }
    rule.exclusions.push(...parsed.exclusions);
  }
}

export function updateTargetById(b: RuleSetBuilder, args: readonly string[], where: SourceLocation): void {
  const list = ranges([args[0] ?? ''], where);
  updateTargets(b, 'SecRuleUpdateTargetById', b.starters().filter((r) => idInRanges(r.id, list)), args, where);
}

export function updateTargetByTag(b: RuleSetBuilder, args: readonly string[], where: SourceLocation): void {
  const re = regex(args[0] ?? '', where);
  updateTargets(b, 'SecRuleUpdateTargetByTag', b.starters().filter((r) => r.tags.some((t) => re.test(t))), args, where);
}

export function updateTargetByMsg(b: RuleSetBuilder, args: readonly string[], where: SourceLocation): void {
  const re = regex(args[0] ?? '', where);
  updateTargets(b, 'SecRuleUpdateTargetByMsg', b.starters().filter((r) => re.test(msgText(r))), args, where);
}

export function updateActionById(b: RuleSetBuilder, args: readonly string[], where: SourceLocation): void {
  if (args.length !== 2) throw new SecLangError(where, 'expects a rule id and an action list');
  const m = /^(\d+)(?::(\d+))?$/.exec(args[0].trim());
  if (m === null) throw new SecLangError(where, `bad rule id "${args[0]}"`);
  const id = Number(m[1]);
  let rule: Rule | undefined = b.starters().find((r) => r.id === id);
  if (rule === undefined) throw new SecLangError(where, `no rule with id ${id}`);
  for (let offset = Number(m[2] ?? 1); offset > 1 && rule; offset--) rule = rule.chainNext;
  if (rule === undefined) throw new SecLangError(where, `rule ${id} has no chain member ${m[2]}`);
  b.applyActionsTo(rule, args[1], where);
}

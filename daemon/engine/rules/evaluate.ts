// Runs the rules of one phase against a transaction, with ModSecurity v2's semantics:
// every target value goes through the (cached) transformation chain and the operator; each
// match runs the rule's non-disruptive actions; the last rule of a chain logs each of its
// matches and applies the chain starter's disruptive action; skip/skipAfter move on.
import type { Rule, Disruptive } from './rule.js';
import type { CompiledTarget } from '../variables/targets.js';
import type { VarEntry } from '../collections/keyed-list.js';
import type { Transaction } from '../transaction.js';

const PASS: Disruptive = { kind: 'pass' };

function collect(tx: Transaction, rule: Rule, target: CompiledTarget): readonly VarEntry[] {
  const v = target.variable;
  let entries: readonly VarEntry[];
  if (target.expression !== undefined) entries = v.byExpression ? v.byExpression(tx, target.expression) : [];
  else if (target.keyLower !== undefined) {
    const key = target.keyLower;
    entries = v.byKey ? v.byKey(tx, key) : v.entries(tx).filter((e) => e.key.toLowerCase() === key);
  } else if (target.keyRegex !== undefined) {
    const re = target.keyRegex;
    entries = v.entries(tx).filter((e) => re.test(e.key));
  } else entries = v.entries(tx);
  if (entries.length === 0) return entries;
  return tx.withoutExcluded(rule, v.name, entries);
}

function matchedName(target: CompiledTarget, entry: VarEntry): string {
  if (target.count) return target.text.slice(1);
  if (!target.variable.collection || entry.key === '') return target.variable.name;
  return `${target.variable.name}:${entry.key}`;
}

/** Evaluates one rule (not its chain); returns whether it matched at least once. */
function evaluateRule(tx: Transaction, rule: Rule, starter: Rule): boolean {
  const operator = rule.operator;
  if (operator === undefined) {
    tx.onMatch(rule, starter, '', '');
    return true;
  }
  let matched = false;
  const runtime = tx.operatorRuntime(rule.capture);
  for (const target of rule.targets) {
    const entries = collect(tx, rule, target);
    if (target.count) {
      const value = String(entries.length);
      if (operator.evaluate(value, runtime) !== operator.negated) {
        matched = true;
        tx.onMatch(rule, starter, matchedName(target, { key: '', value }), value);
        if (tx.interruption) return true;
      }
      continue;
    }
    for (const entry of entries) {
      let hit: string | undefined;
      if (rule.multiMatch && rule.transform !== undefined) {
        let previous = entry.value;
        if (operator.evaluate(previous, runtime) !== operator.negated) hit = previous;
        else {
          for (const step of rule.transform.path) {
            const value = tx.transform(entry, step);
            if (value === previous) continue;
            previous = value;
            if (operator.evaluate(value, runtime) !== operator.negated) {
              hit = value;
              break;
            }
          }
        }
      } else {
        const value = rule.transform === undefined ? entry.value : tx.transform(entry, rule.transform);
        if (operator.evaluate(value, runtime) !== operator.negated) hit = value;
      }
      if (hit !== undefined) {
        matched = true;
        tx.onMatch(rule, starter, matchedName(target, entry), hit);
        if (tx.interruption) return true;
      }
    }
  }
  return matched;
}

function evaluateChain(tx: Transaction, starter: Rule): boolean {
  tx.beginRule(starter);
  let rule: Rule | undefined = starter;
  while (rule !== undefined) {
    if (!evaluateRule(tx, rule, starter)) return false;
    if (tx.interruption) return true;
    rule = rule.chained ? rule.chainNext : undefined;
  }
  return true;
}

/** The disruptive action that applies when `starter` matched. */
export function effectiveDisruptive(starter: Rule): Disruptive {
  const d = starter.disruptive ?? PASS;
  return d.kind === 'block' ? starter.blockAs ?? PASS : d;
}

/** Runs `phase`'s rules. Stops early on an interruption or allow. */
export function evaluatePhase(tx: Transaction, rules: readonly Rule[]): void {
  let i = 0;
  while (i < rules.length) {
    const rule = rules[i];
    if (tx.isRemoved(rule)) {
      i++;
      continue;
    }
    const matched = evaluateChain(tx, rule);
    if (tx.interruption || tx.allowedPhase) return;
    if (matched && rule.skipAfterIndex >= 0) i = rule.skipAfterIndex;
    else if (matched && rule.skip > 0) i += 1 + rule.skip;
    else i++;
  }
}

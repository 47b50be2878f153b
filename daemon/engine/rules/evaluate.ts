// Runs the rules of one phase against a transaction, with ModSecurity v2's semantics:
// every target value goes through the (cached) transformation chain and the operator; each
// match runs the rule's non-disruptive actions; the last rule of a chain logs each of its
// matches and applies the chain starter's disruptive action; skip/skipAfter move on.
//
// This is the hot loop (hundreds of rules, thousands of values per request): everything a
// rule needs was resolved at load (targets with their exclusion groups, the transformation
// step, the operator), so per value it is one cached transformation lookup and one call.
import type { Rule, Disruptive } from './rule.js';
import { withoutSelected, type CompiledTarget } from '../variables/targets.js';
import { VarEntry, SHARE_FROM } from '../collections/keyed-list.js';
import type { Transaction } from '../transaction.js';
import type { OperatorRuntime } from '../operators/types.js';
import { distinctValues, type DistinctValues } from './distinct-values.js';
import { mayMatch } from './byte-gate.js';

const PASS: Disruptive = { kind: 'pass' };
const NONE: readonly VarEntry[] = [];

/** The values `target` selects, before any exclusion. */
function select(tx: Transaction, target: CompiledTarget): readonly VarEntry[] {
  const v = target.variable;
  if (target.nameSlot! >= 0) return v.collectionOf!(tx)?.byKeySlot(target.nameSlot!) ?? NONE;
  if (target.keyLower !== undefined) {
    const key = target.keyLower;
    return v.byKey !== undefined ? v.byKey(tx, key) : v.entries(tx).filter((e) => e.key.toLowerCase() === key);
  }
  if (target.keyRegex !== undefined) {
    const re = target.keyRegex;
    const test = target.keyTest ?? ((key: string) => re.test(key));
    // TX and the other writable collections: without building their whole list (entriesWhere).
    if (v.collectionOf !== undefined) return v.collectionOf(tx)?.entriesWhere(test) ?? NONE;
    return v.entries(tx).filter((e) => test(e.key));
  }
  if (target.expression !== undefined) return v.byExpression !== undefined ? v.byExpression(tx, target.expression) : NONE;
  return v.entries(tx);
}

/** A slotted target's entries for the phase, its exclusion group applied (selected once). */
function slotEntries(tx: Transaction, target: CompiledTarget): readonly VarEntry[] {
  const slot = target.slot!;
  let entries = tx.slotEntries[slot];
  if (entries === undefined) {
    entries = select(tx, target);
    const group = target.excluded;
    if (group !== undefined && entries.length > 0) entries = withoutSelected(entries, group.selectors);
    tx.slotEntries[slot] = entries;
  }
  return entries;
}

/** The values `target` selects for the current rule, exclusions applied. */
function collect(tx: Transaction, target: CompiledTarget): readonly VarEntry[] {
  let entries: readonly VarEntry[];
  if (target.slot! >= 0) entries = slotEntries(tx, target);
  else {
    entries = select(tx, target);
    const group = target.excluded;
    if (group !== undefined && entries.length > 0) entries = tx.withoutGroup(group, entries);
  }
  if (entries.length === 0 || !tx.removesTargets) return entries;
  return tx.withoutRemovedTargets(target, entries);
}

/** MATCHED_VAR_NAME of an entry (not of a count: see evaluateRule). */
function matchedName(target: CompiledTarget, entry: VarEntry): string {
  const variable = target.variable.name;
  if (!target.variable.collection || entry.key === '') return variable;
  // Cached on the leader when it has the same name (a *_NAMES list), else on the entry.
  const holder = entry.leader.key === entry.key ? entry.leader : entry;
  if (holder.matchedNameOf !== variable) {
    holder.matchedName = `${variable}:${entry.key}`;
    holder.matchedNameOf = variable;
  }
  return holder.matchedName!;
}

/** multiMatch: the operator on the value and after every transformation that changed it. As both
 *  ModSecurity versions do, each stage that matches is a match of its own: its actions run again
 *  (a `+` that t:urlDecodeUni turns into a space can add a rule's score twice). Returns whether any
 *  stage matched. */
function multiMatchStages(tx: Transaction, rule: Rule, starter: Rule, target: CompiledTarget, entry: VarEntry): boolean {
  const operator = rule.operator!;
  const runtime = tx.operatorRuntime(rule.capture);
  let previous = entry.value;
  let matched = false;
  const gated = (rule.gateLo | rule.gateHi) !== 0 && !mayMatch(entry.leader, rule.gateLo, rule.gateHi);
  if ((gated ? false : operator.evaluate(previous, runtime)) !== operator.negated) {
    matched = true;
    tx.onMatch(rule, starter, matchedName(target, entry), previous);
    if (tx.interruption) return true;
  }
  for (const step of rule.transform!.path) {
    const value = tx.transform(entry, step);
    if (value === previous) continue;
    previous = value;
    if (operator.evaluate(value, runtime) !== operator.negated) {
      matched = true;
      tx.onMatch(rule, starter, matchedName(target, entry), value);
      if (tx.interruption) return true;
    }
  }
  return matched;
}

/** The rule's transformed value of a leader entry. */
function transformedValue(tx: Transaction, rule: Rule, cell: VarEntry): string {
  const step = rule.transform;
  if (step === undefined) return cell.value;
  const results = cell.transformed;
  return (results === undefined ? undefined : results[rule.stepId]) ?? tx.transform(cell, step);
}

/** Tries each distinct value once (see distinct-values.ts); misses are remembered on the leaders. */
function anyDistinctMatches(tx: Transaction, rule: Rule, distinct: DistinctValues, runtime: OperatorRuntime): boolean {
  const leaders = distinct.leaders;
  const evaluate = rule.evaluate!;
  const word = rule.missBit >> 5;
  const mask = 1 << (rule.missBit & 31);
  const gateLo = rule.gateLo;
  const gateHi = rule.gateHi;
  const gated = (gateLo | gateHi) !== 0;
  // The gate read from columns (gate-columns.ts): values it stops are not even looked at.
  const triggers = rule.gateTriggers;
  const columns = gated && triggers >= 0 ? distinct.gateColumns(tx.byteClasses) : undefined;
  for (let i = 0; i < leaders.length; i++) {
    if (columns !== undefined && (columns.triggers[i] & triggers) === 0 && (columns.lo[i] & gateLo) === 0 && (columns.hi[i] & gateHi) === 0) continue;
    const cell = leaders[i];
    if (tx.misses.known(cell, word, mask)) continue;
    const value = transformedValue(tx, rule, cell);
    if (!(gated && value === cell.value && !mayMatch(cell, gateLo, gateHi)) && evaluate(value, runtime)) return true;
    tx.misses.remember(cell, word, mask);
  }
  return false;
}

/** Evaluates one rule (not its chain); returns whether it matched at least once. */
function evaluateRule(tx: Transaction, rule: Rule, starter: Rule): boolean {
  const evaluate = rule.evaluate;
  if (evaluate === undefined) {
    tx.onMatch(rule, starter, '', '');
    return true;
  }
  const negated = rule.negated;
  const step = rule.transform;
  const stepId = rule.stepId;
  const missBit = rule.missBit;
  const missWord = missBit >> 5;
  const missMask = 1 << (missBit & 31);
  const multi = rule.multiMatch && step !== undefined;
  const gateLo = rule.gateLo;
  const gateHi = rule.gateHi;
  const gated = (gateLo | gateHi) !== 0;
  const runtime = tx.operatorRuntime(rule.capture);
  const targets = rule.targets;
  let matched = false;
  for (let t = 0; t < targets.length; t++) {
    const target = targets[t];
    const entries = collect(tx, target);
    if (target.count) {
      const value = String(entries.length);
      if (evaluate(value, runtime) !== negated) {
        matched = true;
        // The name of a count is the target's text without '&' (no entry to build for it).
        tx.onMatch(rule, starter, target.text.slice(1), value);
        if (tx.interruption) return true;
      }
      continue;
    }
    if (missBit >= 0 && !negated && !multi && entries.length >= SHARE_FROM && !tx.removesTargets) {
      const distinct = distinctValues(tx, target, entries);
      if (distinct !== null && !anyDistinctMatches(tx, rule, distinct, runtime)) continue;
    }
    for (let e = 0; e < entries.length; e++) {
      const entry = entries[e];
      const cell = entry.leader;
      // A known miss: the rule had no hit on this value before (miss-bits.ts; for a negated rule,
      // its operator matched).
      if (missBit >= 0 && tx.misses.known(cell, missWord, missMask)) continue;
      if (multi) {
        if (multiMatchStages(tx, rule, starter, target, entry)) {
          matched = true;
          if (tx.interruption) return true;
        } else if (missBit >= 0) tx.misses.remember(cell, missWord, missMask);
        continue;
      }
      let value: string | undefined;
      if (step === undefined) value = cell.value;
      else {
        // The cache hit inline: most (rule, value) pairs find their transformed value here.
        const results = cell.transformed;
        value = results === undefined ? undefined : results[stepId];
        if (value === undefined) value = tx.transform(cell, step);
      }
      // The byte gate: the value lacks every byte the regex needs (byte-gate.ts), as good as
      // an operator miss.
      const result = !(gated && value === cell.value && !mayMatch(cell, gateLo, gateHi)) && evaluate(value, runtime);
      if (result === negated) {
        if (missBit >= 0) tx.misses.remember(cell, missWord, missMask);
        continue;
      }
      matched = true;
      tx.onMatch(rule, starter, matchedName(target, entry), value);
      if (tx.interruption) return true;
    }
  }
  return matched;
}

/** Evaluates one chain starter with its chain, as the phase loop does (without skips); also for
 *  load-time analyses (rules/init-fold.ts). */
export function evaluateChain(tx: Transaction, starter: Rule): boolean {
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
    // Every value the rule reads is known to miss it (miss-groups.ts): as if evaluated, no match.
    if (rule.missGroup >= 0 && (tx.misses.groupWordOf(rule, tx, slotEntries) & (1 << (rule.missBit & 31))) !== 0) {
      i++;
      continue;
    }
    if (tx.removesRules && tx.isRemoved(rule)) {
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

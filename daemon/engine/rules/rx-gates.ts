// Which rules get a byte gate (rules/byte-gate.ts) and with which masks: those whose operator is
// the built-in @rx with a fixed pattern (a pattern with %{macros} changes per request). The
// pattern is parsed as @rx compiles it (PCRE defaults: DOTALL, no UTF mode, see ../regex/).
import type { Rule } from './rule.js';
import type { OperatorFactory } from '../operators/types.js';
import { rx } from '../operators/rx.js';
import { parsePcre } from '../regex/parse.js';
import { requiredBytes } from './required-bytes.js';
import { gateMasksOf } from './byte-gate.js';

/** Sets `gateLo/gateHi` on each rule whose @rx needs one of a known set of bytes. */
export function assignRxGates(rules: readonly Rule[], operators: ReadonlyMap<string, OperatorFactory>): void {
  // Another @rx (a test registry, say) may not mean PCRE: only the built-in one is understood.
  if (operators.get('rx') !== rx) return;
  const byPattern = new Map<string, { lo: number; hi: number }>();
  for (const rule of rules) {
    const op = rule.operator;
    if (op === undefined || op.name !== 'rx' || op.param.includes('%{')) continue;
    let masks = byPattern.get(op.param);
    if (masks === undefined) {
      const { ast } = parsePcre(op.param, { caseless: false, dotall: true, multiline: false, extended: false });
      const needs = requiredBytes(ast);
      masks = needs === null ? { lo: 0, hi: 0 } : gateMasksOf(needs);
      byPattern.set(op.param, masks);
    }
    rule.gateLo = masks.lo;
    rule.gateHi = masks.hi;
    rule.gateTriggers = chainTriggers(rule);
  }
}

/** The trigger bits of the rule's transformations, or -1 when one has none (always runs). */
function chainTriggers(rule: Rule): number {
  let bits = 0;
  for (const step of rule.transform?.path ?? []) {
    if (step.triggerBit === 0) return -1;
    bits |= step.triggerBit;
  }
  return bits;
}

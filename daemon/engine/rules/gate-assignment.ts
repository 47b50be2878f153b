// Which rules get a byte gate (rules/byte-gate.ts) and with which masks: those whose operator's
// registry entry knows the bytes every match needs (`requiredBytes`: the built-in @rx, from its
// PCRE pattern) and whose parameter is fixed (a parameter with %{macros} changes per request).
// A registry that brings its own @rx without `requiredBytes` (a test's, say) gets no gates.
import type { Rule } from './rule.js';
import { gateMasksOf } from './byte-gate.js';
import { speedLayerOn } from './speed-layers.js';

/** Sets `gateLo/gateHi` on each rule whose operator needs one of a known set of bytes. */
export function assignByteGates(rules: readonly Rule[]): void {
  if (!speedLayerOn('byte-gate')) return;
  const byOperatorParam = new Map<string, { lo: number; hi: number }>();
  for (const rule of rules) {
    const op = rule.operator;
    const requiredBytes = op?.definition.requiredBytes;
    if (op === undefined || !requiredBytes || op.readsMacros) continue;
    const key = `${op.name}\u0000${op.param}`;
    let masks = byOperatorParam.get(key);
    if (masks === undefined) {
      const needs = requiredBytes(op.param);
      masks = needs === null ? { lo: 0, hi: 0 } : gateMasksOf(needs);
      byOperatorParam.set(key, masks);
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

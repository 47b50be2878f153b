// A value repeated under many names (JSON arrays of objects: hundreds of arguments, a few dozen
// distinct values) would meet every rule's operator once per entry. Entries with equal values
// share a leader (collections/keyed-list.ts), and the leader remembers, one bit per rule, that
// the rule's operator returned false on it; later entries skip the call. The bits are the
// value's, kept across transactions by the rule set's memo (miss-memo.ts).
//
// Sound because a rule's transformed value depends on the value alone, and operators have no
// side effects when they return false (CONTRACT.md); for a multiMatch rule the bit means that
// none of its inputs (the value and each transformation that changed it) matched. Rules whose
// operator reads macros (the answer may change as TX does) get no bit.
import type { Rule } from './rule.js';

/** Gives each rule that may remember misses a bit (`missBit`); returns the words a bit set needs. */
export function assignMissBits(rules: readonly Rule[]): number {
  let bits = 0;
  for (const rule of rules) {
    const op = rule.operator;
    rule.missBit = op !== undefined && !op.param.includes('%{') ? bits++ : -1;
  }
  return (bits + 31) >> 5;
}

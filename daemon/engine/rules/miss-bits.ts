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
//
// For a negated rule (`!@rx ...`) a miss is the operator matching: the bit means the rule had no
// hit on the value, which for benign traffic is the common case (CRS's protocol checks such as
// 920100 on REQUEST_LINE and 920600 on Accept are negated). A match may have side effects
// (captures, GEO), so a negated rule gets a bit only when its operator has none: no `capture`,
// and no `effectsOnMatch` on the operator's registry entry (@geoLookup sets GEO, @rbl asks the
// network).
import type { Rule } from './rule.js';

/** Gives each rule that may remember misses a bit (`missBit`); returns the words a bit set needs. */
export function assignMissBits(rules: readonly Rule[]): number {
  let bits = 0;
  for (const rule of rules) {
    const op = rule.operator;
    const remembers = op !== undefined && !op.readsMacros
      && (!op.negated || (!rule.capture && !op.definition.effectsOnMatch));
    rule.missBit = remembers ? bits++ : -1;
  }
  return (bits + 31) >> 5;
}

// Rules skipped whole when every value they read is known to miss them. CRS's ~200 phase-2 rules
// over `REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|REQUEST_COOKIES_NAMES|ARGS_NAMES|ARGS|XML:/*`
// read the same few target slots; once a browser's cookie and argument values are in the miss
// memo (miss-memo.ts), each of those rules would still walk its targets, lists and entries only
// to find every value known to miss. Rules whose targets are all slotted (target-slots.ts) form
// a group per set of slots; per transaction and phase, a group's bits are the AND, over its
// slots, of the AND of the slot's values' bits (an empty slot: all ones), so the phase loop
// skips such a rule by one bit test, without touching its targets.
//
// Sound because skipping is what evaluating would do: no value can match (each is known to
// miss, for this rule's operator and transformations), and a rule that does not match runs no
// action. Only for rules that remember misses (a miss bit; for a negated rule the bit means its
// operator matched, so no hit either, and no value means no match for a negated rule too),
// without `&` counts (the value is a count, not an entry). Bits only ever get set, so
// a group's bits computed early in the phase stay true; slots are fixed for the phase.
// (Runs of such rules tested at once, and skip gates for the paranoia-level skip rules, were
// measured not to pay and removed: the table in daemon/engine/README.md, section Speed.)
import type { Rule } from './rule.js';
import type { CompiledTarget } from '../variables/targets.js';
import { speedLayerOn } from './speed-layers.js';

/** Assigns `missGroup` to the rules that may be skipped; returns each group's targets, one per slot. */
export function assignMissGroups(rules: readonly Rule[]): CompiledTarget[][] {
  const groups: CompiledTarget[][] = [];
  const bySlots = new Map<string, number>();
  for (const rule of rules) {
    rule.missGroup = -1;
    if (!speedLayerOn('rule-skips')) continue;
    const op = rule.operator;
    if (rule.missBit < 0 || op === undefined || rule.targets.length === 0) continue;
    if (!rule.targets.every((t) => t.slot! >= 0 && !t.count)) continue;
    const bySlot = new Map<number, CompiledTarget>();
    for (const t of rule.targets) bySlot.set(t.slot!, t);
    const key = [...bySlot.keys()].sort((a, b) => a - b).join(',');
    let group = bySlots.get(key);
    if (group === undefined) {
      group = groups.length;
      groups.push([...bySlot.values()]);
      bySlots.set(key, group);
    }
    rule.missGroup = group;
  }
  return groups;
}

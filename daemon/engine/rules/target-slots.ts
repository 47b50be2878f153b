// Finishing a rule's targets at load, so evaluation does no lookups by name:
// - each target gets its rule's exclusion group for the same variable (`!REQUEST_COOKIES:/__utm/`);
//   equal groups across rules are one group, numbered for a per-transaction cache;
// - a target on a variable whose values only change between phases (request, body and response
//   data) gets a slot: equal targets (same variable, selector and exclusion group) across all
//   rules share one, and the transaction selects and filters a slot's entries once per phase.
//   CRS's ~200 rules on `REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|...|ARGS` then cost one array
//   read per target;
// - a target naming one variable of a writable collection (`TX:EXECUTING_PARANOIA_LEVEL`) gets
//   the name's slot, so it is read without a lookup by string.
// Targets may be shared between rules (SecRuleUpdateTarget* pushes one parsed target into many),
// so every rule gets its own copies, all built with the same fields in the same order.
import type { Rule } from './rule.js';
import { nameSlot } from '../collections/name-slots.js';
import type { CompiledTarget, ExclusionGroup, KeySelector, TargetExclusion } from '../variables/targets.js';

function selectorKey(s: KeySelector): string {
  return s.keyRegex ? `/${s.keyRegex.source}/${s.keyRegex.flags}` : s.keyLower ?? '*';
}

/** Groups exclusions by variable; equal groups (same variable, same selectors) are one group. */
function groupExclusions(exclusions: readonly TargetExclusion[], interned: Map<string, ExclusionGroup>): Map<string, ExclusionGroup> {
  const groups = new Map<string, TargetExclusion[]>();
  for (const e of exclusions) groups.set(e.variableName, [...(groups.get(e.variableName) ?? []), e]);
  const out = new Map<string, ExclusionGroup>();
  for (const [name, list] of groups) {
    const signature = `${name}\u0000${list.map(selectorKey).join('\u0000')}`;
    let shared = interned.get(signature);
    if (shared === undefined) {
      shared = { index: interned.size, selectors: list };
      interned.set(signature, shared);
    }
    out.set(name, shared);
  }
  return out;
}

export interface FinishedTargets {
  /** Number of exclusion groups. */
  exclusionGroups: number;
  /** Number of target slots. */
  targetSlots: number;
}

/** Rewrites every rule's `targets` (see above). */
export function finishTargets(rules: readonly Rule[]): FinishedTargets {
  const groups = new Map<string, ExclusionGroup>();
  const slots = new Map<string, number>();
  for (const rule of rules) {
    const byVariable = groupExclusions(rule.exclusions, groups);
    rule.targets = rule.targets.map((t): CompiledTarget => {
      const excluded = byVariable.get(t.variable.name);
      let slot = -1;
      if (t.variable.stable) {
        const signature = [t.variable.name, t.keyLower ?? '', t.keyRegex ? selectorKey(t) : '', t.expression ?? '', excluded?.index ?? -1].join('\u0000');
        slot = slots.get(signature) ?? slots.size;
        slots.set(signature, slot);
      }
      // Fields the evaluator reads on every request first (they share a cache line).
      return {
        slot,
        count: t.count,
        nameSlot: t.variable.collectionOf !== undefined && t.keyLower !== undefined ? nameSlot(t.keyLower) : -1,
        excluded,
        variable: t.variable,
        keyLower: t.keyLower,
        keyRegex: t.keyRegex,
        keyTest: t.keyTest,
        expression: t.expression,
        text: t.text,
      };
    });
  }
  return { exclusionGroups: groups.size, targetSlots: slots.size };
}

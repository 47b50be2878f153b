// Skip gates: rules whose only consequence of a match is where evaluation resumes. CRS has ~70
// of them per request at PL1 (`SecRule TX:EXECUTING_PARANOIA_LEVEL "@lt 2" "id:..,phase:N,pass,
// nolog,skipAfter:END-..."`), and each one matches on every request. A match of such a rule
// runs no action, logs nothing and cannot interrupt, so the evaluator can skip the general
// match bookkeeping (Transaction.onMatch) and only record MATCHED_VAR / MATCHED_VARS, which
// ModSecurity sets for nolog rules too and later rules may read.
import type { Rule } from './rule.js';

/** True when a match of `rule` only records the matched value and moves evaluation on. */
export function isSkipGate(rule: Rule): boolean {
  if (rule.kind !== 'rule' || rule.chained || rule.chainStarter !== rule) return false;
  if (rule.skipAfterIndex < 0 && rule.skip <= 0) return false;
  if (rule.operator === undefined || rule.operator.negated) return false;
  if (rule.targets.length !== 1 || rule.targets[0].count) return false;
  // No transformation, multiMatch or capture: the operator sees the stored value as it is.
  if (rule.transform !== undefined || rule.multiMatch || rule.capture) return false;
  if (rule.effects.length > 0 || rule.log !== false || rule.severity !== undefined) return false;
  const disruptive = rule.disruptive?.kind ?? 'pass';
  return disruptive === 'pass' || (disruptive === 'block' && (rule.blockAs?.kind ?? 'pass') === 'pass');
}

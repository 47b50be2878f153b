// CRS begins every transaction the same way: 900990 sets the setup version, 901100-901168 give
// each setting its default (`SecRule &TX:x "@eq 0" "...,setvar:tx.x=..."`), 901200 sets ~20
// counters to 0; ~25 phase-1 rules whose only input is TX, which nothing before them writes. They
// leave TX in the same state on every request, and cost ~3.5 µs of rule bookkeeping a request
// (onMatch, setvar macros, the rule loop). At load this module runs that leading stretch once on a
// scratch transaction, takes the TX it leaves as a template, and removes the rules from phase 1;
// each transaction's phase 1 starts from the template instead (a copy of ~45 variables).
//
// Exact, not approximate. A rule is folded only when:
// - its inputs are constant: no targets (SecAction), or only `TX:name` / `&TX:name` by exact
//   name, without exclusions; an operator without macros whose registry entry says it is `pure`;
//   every setvar on TX with a constant name and a value whose macros read TX only;
// - every action's registry entry says it reaches the rule or the transaction at most (so
//   running it on the scratch one is harmless): no initcol, setenv, ctl, skip...;
// - if it matches: it passes, does not log, has no severity, no skip/skipAfter and no capture,
//   so its only effect is its setvars (a deny, allow or redirect that matches on the scratch run
//   ends the folding); if it does not match it has no effect at all (it is not a chain: a chain
//   starter's own setvars run even when the chain fails);
// - everything before it in phase 1 is folded too, or "inert": it neither reads nor writes TX
//   (no TX target, no macro anywhere, every action reaching only the rule but for ctl's body
//   processing choices), so it cannot skip rules or remove them, and passes. So the TX a folded
//   rule sees at run time is the one the scratch run saw, and the rules before it cannot tell
//   that the template came first.
// One more thing a folded rule leaves: MATCHED_VAR. Only a rule that reads it before matching
// itself could see the difference (a SecAction that logs or has %{MATCHED_VAR}, an operator
// parameter with it, a rule targeting MATCHED_VAR(S)); if the rule set has one (CRS has none),
// nothing is folded.
// `WAFCTL_INIT_FOLD=off` turns folding off (for A/B runs and the equivalence tests).
import type { Rule } from './rule.js';
import type { RuleSet } from './rule-set.js';
import type { TemplateVar } from '../collections/mutable-collection.js';
import { Transaction } from '../transaction.js';
import { evaluateChain } from './evaluate.js';
import { InMemoryCollectionStore } from '../collections/persistent-store.js';
import { actions } from '../actions/index.js';
import type { ActionReach } from '../actions/action.js';
import { speedLayerOn } from './speed-layers.js';

/** The action's registry entry says what it can touch (`ActionReach`); unknown names touch anything. */
function reachOf(name: string): ActionReach {
  return actions.get(name.toLowerCase())?.reach ?? 'outside';
}
const MACRO_REF = /%\{([^}]*)\}/g;

/** What folding left: the template phase 1 starts from, and how many rules it stands for. */
export interface InitFold {
  template: readonly TemplateVar[];
  folded: number;
}

/** A setvar (or `!` unset) of a TX variable by constant name, whose value's macros read TX only. */
function isTxOnlySetvar(param: string | undefined): boolean {
  if (param === undefined) return false;
  const text = param.trim().replace(/^!/, '');
  const eq = text.indexOf('=');
  const name = eq < 0 ? text : text.slice(0, eq);
  if (!/^tx\./i.test(name) || name.includes('%{')) return false;
  for (const m of (eq < 0 ? '' : text.slice(eq + 1)).matchAll(MACRO_REF)) if (!/^tx[.:]/i.test(m[1])) return false;
  return true;
}

function hasMacro(rule: Rule): boolean {
  return rule.actionTexts.some((a) => a.param?.includes('%{')) || (rule.operator?.readsMacros ?? false);
}

/** Neither reads nor writes TX, cannot skip or remove rules, passes: may stay before folded rules. */
function isInert(rule: Rule): boolean {
  if (rule.chained || hasMacro(rule)) return false;
  if (rule.disruptive !== undefined && rule.disruptive.kind !== 'pass') return false;
  if (rule.targets.some((t) => t.variable.name === 'TX' || t.variable.name.startsWith('MATCHED_'))) return false;
  return rule.actionTexts.every(({ name, param }) => {
    if (reachOf(name) === 'rule') return true;
    // Body processing choices do not touch TX or the rule list.
    return name.toLowerCase() === 'ctl' && /^\s*(requestBodyProcessor|forceRequestBodyVariable|requestBodyAccess)\s*=/i.test(param ?? '');
  });
}

/** Inputs constant, actions safe to run on the scratch transaction. */
function isCandidate(rule: Rule): boolean {
  if (rule.chained || rule.exclusions.length > 0) return false;
  const op = rule.operator;
  if (op !== undefined && (!op.definition.pure || op.readsMacros)) return false;
  if (!rule.targets.every((t) => t.variable.name === 'TX' && t.keyLower !== undefined && t.keyRegex === undefined && t.expression === undefined)) return false;
  return rule.actionTexts.every(({ name, param }) => {
    const n = name.toLowerCase();
    if (n === 'setvar') return isTxOnlySetvar(param);
    if (n === 'msg' || n === 'logdata') return true; // expanded only when logged, which a folded match is not
    // Running it on the scratch transaction touches nothing else; a disruptive one must not match (below).
    const reach = reachOf(n);
    return (reach === 'rule' || reach === 'transaction') && !param?.includes('%{');
  });
}

/** A match whose only effect is its setvars. */
function matchIsFoldable(rule: Rule): boolean {
  return (rule.disruptive === undefined || rule.disruptive.kind === 'pass') && rule.log === false && rule.auditlog !== true
    && rule.severity === undefined && rule.skipAfter === undefined && rule.skip === 0 && !rule.capture;
}

/** Some rule could read MATCHED_VAR as left by an earlier rule. */
function readsEarlierMatch(rules: readonly Rule[]): boolean {
  return rules.some((rule) => {
    if (rule.chainStarter !== rule) return false; // a chain member reads its own chain's match
    if (rule.targets.some((t) => t.variable.name.startsWith('MATCHED_VAR'))) return true;
    if (/%\{\s*matched_var/i.test(rule.operator?.param ?? '')) return true;
    // A SecAction has no match of its own: its logged match and its macros show the last rule's.
    return rule.operator === undefined && (rule.log === true || rule.actionTexts.some((a) => /%\{\s*matched_var/i.test(a.param ?? '')));
  });
}

const SCRATCH_REQUEST = { remoteAddr: '0.0.0.0', remotePort: 0, method: 'GET', uri: '/', protocol: 'HTTP/1.1', headers: [] };

/**
 * Folds the leading constant rules of `ruleSet.phases[1]` (see above): returns the phase-1 list
 * without them and the template, or undefined when nothing folds. `all` is every rule of the set.
 */
export function foldInitRules(ruleSet: RuleSet, all: readonly Rule[]): { rules: Rule[]; fold: InitFold } | undefined {
  if (!speedLayerOn('init-fold') || readsEarlierMatch(all)) return undefined;
  const list = ruleSet.phases[1];
  const scratch = new Transaction({ ruleSet, bodyProcessors: new Map(), store: new InMemoryCollectionStore(() => 0) }, SCRATCH_REQUEST);
  scratch.phase = 1;
  const folded = new Set<Rule>();
  let template: TemplateVar[] = [];
  for (const rule of list) {
    if (isCandidate(rule)) {
      const matched = evaluateChain(scratch, rule);
      if (scratch.interruption || scratch.allowedPhase || (matched && !matchIsFoldable(rule))) break;
      folded.add(rule);
      template = scratch.tx.exportVars();
    } else if (!isInert(rule)) break;
  }
  if (folded.size === 0) return undefined;
  return { rules: list.filter((r) => !folded.has(r)), fold: { template, folded: folded.size } };
}

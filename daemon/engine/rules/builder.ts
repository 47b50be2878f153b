// Builds the rule set directive by directive: SecRule, SecAction, SecMarker and
// SecDefaultAction create and link rules; the removal and update directives edit rules
// already defined (as in ModSecurity, they only see rules above them); finish() resolves
// markers and `block`, and freezes the result.
import { Rule, type Disruptive, type Phase } from './rule.js';
import { parseActionList, type ActionText } from './action-list.js';
import { applyActions } from './apply-actions.js';
import { compileOperator } from './compile-operator.js';
import { TransformTrie } from './transform-chain.js';
import { defaultEngineSettings, type EngineSettings, type RuleSet } from './rule-set.js';
import type { ActionCompileContext } from '../actions/action.js';
import type { OperatorDefinition } from '../operators/types.js';
import type { TransformationDefinition } from '../transformations/types.js';
import { parseTargets } from '../variables/targets.js';
import { finishTargets } from './target-slots.js';
import { sharePhraseScans } from './shared-phrase-scans.js';
import { assignMissBits } from './miss-bits.js';
import { newMissMemo, type MissMemoLimits } from './miss-memo.js';
import { assignMissGroups } from './miss-groups.js';
import { MissSummaries } from './miss-summaries.js';
import { assignByteGates } from './gate-assignment.js';
import { foldInitRules } from './init-fold.js';
import { SecLangError, type SourceLocation } from '../seclang/errors.js';

export interface Registries {
  operators: ReadonlyMap<string, OperatorDefinition>;
  transformations: ReadonlyMap<string, TransformationDefinition>;
}

interface DefaultAction {
  actions: ActionText[];
  disruptive: Disruptive;
}

export interface ModifierWithoutEffect {
  location: SourceLocation;
  /** The directive as written, e.g. `SecRuleUpdateTargetById 999999`. */
  directive: string;
}

export class RuleSetBuilder {
  readonly settings: EngineSettings = defaultEngineSettings();
  /** Every rule (starters and chain members) in configuration order. */
  private rules: Rule[] = [];
  private readonly markers = new Map<string, number>();
  private readonly defaults = new Map<Phase, DefaultAction>();
  private readonly trie = new TransformTrie();
  private pendingChain: Rule | undefined;
  /** Ids of the rules defined so far (a removed rule's id may be used again).  */
  private readonly ids = new Set<number>();
  private order = 0;
  /** Removal and update directives whose selector matched no rule defined above them: valid, but
   *  they change nothing (ModSecurity loads them the same way). A caller may tell its user. */
  readonly withoutEffect: ModifierWithoutEffect[] = [];

  constructor(private readonly registries: Registries) {}

  private context(location: SourceLocation): ActionCompileContext {
    return { location, transformations: this.registries.transformations, trie: this.trie };
  }

  private parseActions(text: string, where: SourceLocation): ActionText[] {
    try {
      return parseActionList(text);
    } catch (err) {
      throw new SecLangError(where, (err as Error).message);
    }
  }

  setDefaultAction(text: string, where: SourceLocation): void {
    const list = this.parseActions(text, where);
    const probe = new Rule(where);
    applyActions(probe, list, this.context(where));
    if (!probe.phaseSet) throw new SecLangError(where, 'SecDefaultAction must name a phase');
    if (probe.disruptive === undefined) throw new SecLangError(where, 'SecDefaultAction must name a disruptive action');
    // ModSecurity v2 refuses these (v3 ignores most of them); tag, severity and logdata are accepted by
    // both and reach every rule of the phase (CRS's CI image writes `SecDefaultAction "...,tag:'modsecurity'"`).
    if (probe.id !== 0 || probe.msg || probe.rev !== undefined || probe.ver !== undefined || probe.maturity !== undefined
      || probe.accuracy !== undefined || probe.chained || probe.skipAfter || probe.skip !== 0) {
      throw new SecLangError(where, 'SecDefaultAction may not carry id, msg, rev, ver, maturity, accuracy, chain or skip actions');
    }
    this.defaults.set(probe.phase, { actions: list.filter((a) => a.name.toLowerCase() !== 'phase'), disruptive: probe.disruptive });
  }

  addRule(targetsText: string | undefined, operatorText: string | undefined, actionsText: string, where: SourceLocation): void {
    const rule = new Rule(where);
    rule.order = this.order++;
    rule.kind = targetsText === undefined ? 'action' : 'rule';
    const own = this.parseActions(actionsText, where);
    const parent = this.pendingChain;
    if (parent) {
      rule.phase = parent.phase;
      rule.chainStarter = parent.chainStarter;
      parent.chainNext = rule;
    } else {
      const phaseText = [...own].reverse().find((a) => a.name.toLowerCase() === 'phase');
      if (phaseText) applyActions(rule, [phaseText], this.context(where));
    }
    const defaults = this.defaults.get(rule.phase);
    if (defaults) applyActions(rule, defaults.actions, this.context(where));
    applyActions(rule, own, this.context(where));
    if (parent) {
      if (rule.phaseSet && rule.phase !== parent.phase) throw new SecLangError(where, 'a chained rule may not change the phase');
      rule.phase = parent.phase;
    } else if (rule.id === 0) {
      throw new SecLangError(where, 'rule has no id');
    } else if (this.ids.has(rule.id)) {
      throw new SecLangError(where, `duplicate rule id ${rule.id}`);
    }
    if (!parent) this.ids.add(rule.id);
    if (targetsText !== undefined) {
      const parsed = parseTargets(targetsText, where);
      if (parsed.targets.length === 0) throw new SecLangError(where, 'rule has no variables');
      rule.targets = parsed.targets;
      rule.exclusions = parsed.exclusions;
      rule.operator = compileOperator(operatorText ?? '', this.registries.operators, where);
    }
    this.pendingChain = rule.chained ? rule : undefined;
    this.rules.push(rule);
  }

  addMarker(name: string, where: SourceLocation): void {
    if (this.pendingChain) throw new SecLangError(where, 'SecMarker inside an unfinished chain');
    this.markers.set(name, this.order++);
  }

  /** Chain starters, for the removal and update directives. */
  starters(): Rule[] {
    return this.rules.filter((r) => r.chainStarter === r);
  }

  /** Returns how many chain starters were removed. */
  removeStarters(predicate: (rule: Rule) => boolean): number {
    const removed = new Set(this.starters().filter(predicate));
    for (const rule of removed) this.ids.delete(rule.id);
    this.rules = this.rules.filter((r) => !removed.has(r.chainStarter));
    return removed.size;
  }

  applyActionsTo(rule: Rule, text: string, where: SourceLocation): void {
    const list = this.parseActions(text, where);
    if (list.some((a) => ['id', 'phase', 'chain'].includes(a.name.toLowerCase()))) {
      throw new SecLangError(where, 'SecRuleUpdateActionById cannot change id, phase or chain');
    }
    applyActions(rule, list, this.context(where));
  }

  finish(where: SourceLocation, missMemoLimits?: MissMemoLimits): RuleSet {
    if (this.pendingChain) throw new SecLangError(this.pendingChain.location, 'chain has no following rule');
    const { exclusionGroups, targetSlots } = finishTargets(this.rules);
    const missWords = assignMissBits(this.rules);
    assignByteGates(this.rules);
    const missGroups = assignMissGroups(this.rules);
    for (const rule of this.rules) {
      rule.evaluate = rule.operator?.evaluate;
      rule.negated = rule.operator?.negated ?? false;
      rule.stepId = rule.transform?.id ?? -1;
    }
    sharePhraseScans(this.rules);
    const phases: Rule[][] = [[], [], [], [], [], []];
    const byId = new Map<number, Rule>();
    const orderById = new Map<string, number>();
    for (const rule of this.rules) {
      if (rule.chainStarter !== rule) continue;
      phases[rule.phase].push(rule);
      byId.set(rule.id, rule);
      orderById.set(String(rule.id), rule.order);
      if (rule.disruptive?.kind === 'block') rule.blockAs = this.defaults.get(rule.phase)?.disruptive ?? { kind: 'pass' };
      if (rule.log === undefined) rule.log = true;
    }
    const ruleSet: RuleSet = { phases, settings: { ...this.settings }, byId, transformSteps: this.trie.size, byteClasses: this.trie.byteClasses, exclusionGroups, targetSlots, missWords, missGroups, missSummaries: new MissSummaries(missWords, targetSlots, missGroups.length), missMemo: newMissMemo(missWords, missMemoLimits) };
    // Before the skip indexes, which are positions in the lists.
    const folding = foldInitRules(ruleSet, this.rules);
    if (folding !== undefined) {
      phases[1] = folding.rules;
      ruleSet.initFold = folding.fold;
    }
    for (const list of phases) {
      for (const rule of list) {
        if (rule.skipAfter === undefined) continue;
        const target = this.markers.get(rule.skipAfter) ?? orderById.get(rule.skipAfter);
        if (target === undefined) throw new SecLangError(rule.location, `skipAfter: no marker or rule "${rule.skipAfter}"`);
        let index = list.indexOf(rule) + 1;
        while (index < list.length && list[index].order <= target) index++;
        rule.skipAfterIndex = index;
      }
    }
    void where;
    return ruleSet;
  }
}

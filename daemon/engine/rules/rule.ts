// The compiled form of one SecRule / SecAction / SecMarker. Built by the compiler at load
// (actions write into it), frozen in use: nothing here is created per request.
import type { CompiledTarget, TargetExclusion } from '../variables/targets.js';
import type { Macro } from '../macros/macro.js';
import type { OperatorDefinition, OperatorEvaluate } from '../operators/types.js';
import type { TransformStep } from './transform-chain.js';
import type { Effect } from './effect.js';
import type { SourceLocation } from '../seclang/errors.js';
import type { ActionText } from './action-list.js';

export type Phase = 1 | 2 | 3 | 4 | 5;

export type DisruptiveKind = 'pass' | 'deny' | 'drop' | 'block' | 'allow' | 'redirect';

export interface Disruptive {
  kind: DisruptiveKind;
  /** allow: '' (all remaining phases), 'phase' or 'request'. */
  allowScope?: '' | 'phase' | 'request';
  redirectUrl?: Macro;
}

export interface CompiledOperator {
  /** Lower-case name without '@'. */
  name: string;
  param: string;
  negated: boolean;
  evaluate: OperatorEvaluate;
  /** The registry entry it came from: what the speed layers may assume about the operator. */
  definition: OperatorDefinition;
  /** The parameter has %{macros}: the operator's answer may change as the transaction does. */
  readsMacros: boolean;
}

export class Rule {
  // What the evaluator reads for every rule on every request comes first: V8 lays fields out in
  // this order, so they share the object's first cache lines (this loop is bound by memory
  // latency more than by instructions).
  /** Copies of `operator.evaluate`, `operator.negated` and `transform.id` made when the rule set
   *  is finished, so the evaluator reads them from the rule it already holds (one object less to
   *  fetch from memory per rule and request). */
  evaluate: OperatorEvaluate | undefined;
  negated = false;
  stepId = -1;
  /** This rule's bit in a value's operator-miss bits, or -1 (rules/miss-bits.ts). */
  missBit = -1;
  /** The rule's group of target slots, when it may be skipped as known to miss on every value it
   *  reads (rules/miss-groups.ts), or -1. */
  missGroup = -1;
  /** Byte classes of which a value needs one for the operator to match (rules/byte-gate.ts);
   *  both 0 = no gate. */
  gateLo = 0;
  gateHi = 0;
  /** With a gate: the trigger bits of its transformations (a value holding none of them reaches
   *  the operator unchanged, so the gate applies), or -1 when one of them always runs. */
  gateTriggers = -1;
  targets: CompiledTarget[] = [];
  /** The transformation chain's last step; undefined = none. */
  transform: TransformStep | undefined;
  multiMatch = false;
  capture = false;
  chained = false;
  /** The next rule of this chain. */
  chainNext: Rule | undefined;
  /** Index in this phase's list where evaluation resumes after skipAfter. */
  skipAfterIndex = -1;
  skip = 0;
  /** Non-disruptive actions (setvar, ctl, expirevar, initcol, ...), in written order. */
  effects: Effect[] = [];

  id = 0;
  phase: Phase = 2;
  /** Set when the phase was written on the rule itself (defaults apply otherwise). */
  phaseSet = false;
  /** Position in the whole configuration: markers and skipAfter compare by it. */
  order = 0;
  kind: 'rule' | 'action' | 'marker' = 'rule';
  markerName = '';
  /** `!VAR:sel` exclusions as written; finish() hands each target its variable's group. */
  exclusions: TargetExclusion[] = [];
  operator: CompiledOperator | undefined;
  /** `t:none` was written: the default action's transformations do not apply. */
  transformReset = false;
  msg: Macro | undefined;
  logdata: Macro | undefined;
  severity: number | undefined;
  tags: string[] = [];
  ver: string | undefined;
  rev: string | undefined;
  maturity: number | undefined;
  accuracy: number | undefined;
  disruptive: Disruptive | undefined;
  status: number | undefined;
  log: boolean | undefined;
  auditlog: boolean | undefined;
  /** For `block`: the phase's SecDefaultAction disruptive action, resolved at load. */
  blockAs: Disruptive | undefined;
  skipAfter: string | undefined;
  /** Every action applied to the rule (the phase's defaults included), as written: what the load-time
   *  analyses read (rules/init-fold.ts); the evaluator never does. */
  actionTexts: ActionText[] = [];
  /** The first rule of the chain this rule belongs to (itself for a chain starter). */
  chainStarter: Rule = this;

  constructor(readonly location: SourceLocation) {}

  get file(): string {
    return this.location.file;
  }

  get line(): number {
    return this.location.line;
  }
}

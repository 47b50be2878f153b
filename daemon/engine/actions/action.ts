// A SecLang action: compiled once at load by writing into the Rule (metadata, disruptive and
// flow actions set fields; non-disruptive ones push an Effect that runs on each match).
import type { Rule } from '../rules/rule.js';
import type { TransformTrie } from '../rules/transform-chain.js';
import type { TransformationDefinition } from '../transformations/types.js';
import type { SourceLocation } from '../seclang/errors.js';

export type ActionKind = 'metadata' | 'disruptive' | 'flow' | 'data' | 'nondisruptive';

/**
 * What an action can touch when its rule runs, for the compiler's speed layers (init-fold runs
 * rules on a scratch transaction at load, which is harmless only for the first two):
 * - `rule`: nothing outside the rule's own evaluation (metadata, logging flags, transformations);
 * - `transaction`: the transaction's variables or verdict (setvar, capture, deny, allow...);
 * - `flow`: which rules run next (skip, skipAfter);
 * - `outside`: persistent collections, the environment or the engine's settings (initcol, setenv, ctl...).
 */
export type ActionReach = 'rule' | 'transaction' | 'flow' | 'outside';

export interface ActionCompileContext {
  readonly location: SourceLocation;
  readonly transformations: ReadonlyMap<string, TransformationDefinition>;
  readonly trie: TransformTrie;
}

export interface ActionDefinition {
  /** Lower-case SecLang name. */
  readonly name: string;
  readonly kind: ActionKind;
  readonly reach: ActionReach;
  /** Whether the action takes a `:parameter`. */
  readonly param: 'none' | 'required' | 'optional';
  /** Applies the action to the rule; throws Error with a reason on a bad parameter. */
  apply(rule: Rule, param: string | undefined, ctx: ActionCompileContext): void;
}

// What actions may do to a running transaction. The Transaction implements it.
import type { MutableCollection } from '../collections/mutable-collection.js';
import type { VariableContext } from '../variables/context.js';
import type { Rule } from '../rules/rule.js';
import type { TargetExclusion } from '../variables/targets.js';

/** Selects rules (by id range, tag or msg); built at load by ctl. */
export type RulePredicate = (rule: Rule) => boolean;

export type EngineMode = 'On' | 'Off' | 'DetectionOnly';

/** Settings a rule may change for the rest of the transaction (ctl:...). */
export interface TransactionSettings {
  ruleEngine: EngineMode;
  requestBodyAccess: boolean;
  /** URLENCODED / MULTIPART / JSON / XML chosen by ctl, else from Content-Type. */
  requestBodyProcessor: string | undefined;
  forceRequestBodyVariable: boolean;
  requestBodyLimit: number;
  responseBodyAccess: boolean;
  auditEngine: string;
  auditLogParts: string;
}

export interface ActionContext extends VariableContext {
  readonly settings: TransactionSettings;
  /** initcol / setsid / setuid: opens a persistent record into the named collection. */
  openPersistent(collection: string, key: string): void;
  collectionFor(name: string): MutableCollection | undefined;
  /** ctl:ruleRemoveBy*: rules the predicate selects are skipped for the rest of the transaction. */
  removeRules(predicate: RulePredicate): void;
  /** ctl:ruleRemoveTargetBy*: the selected rules stop looking at the excluded target. */
  removeTargets(predicate: RulePredicate, exclusion: TargetExclusion): void;
  /** Milliseconds since the epoch, one clock for the transaction. */
  now(): number;
}

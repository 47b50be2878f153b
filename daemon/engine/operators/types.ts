// See ../CONTRACT.md: the interface between the rule compiler and the operators.
import type { TimeBudget } from '../budget/time-budget.js';

export interface OperatorCompileContext {
  file: string;
  line: number;
  ruleDir: string;
}

export interface OperatorRuntime {
  expandMacros(text: string): string;
  readonly capturing: boolean;
  setCapture(index: number, value: string): void;
  /** Removes TX:<index>; ModSecurity unsets TX:0..9 before storing a new match's captures. */
  unsetCapture?(index: number): void;
  /** @geoLookup's result: the GEO collection's fields (COUNTRY_CODE, ...), replacing what was there. */
  setGeo?(fields: Record<string, string>): void;
  /** The transaction's time budget, when it has one: regex operators run their execs through it. */
  budget?: TimeBudget;
}

export type OperatorEvaluate = (input: string, runtime: OperatorRuntime) => boolean;
export type OperatorFactory = (param: string, ctx: OperatorCompileContext) => OperatorEvaluate;

/** The bytes of which every match contains one, or null when unknown (rules/required-bytes.ts). */
export type RequiredBytes = ReadonlySet<number> | null;

/**
 * An operator's registry entry: its factory and what the rule compiler may assume about it. The
 * properties are declared here, with the operator, so the speed layers never keep lists of names
 * (test/daemon/engine/registry-entries.test.ts fails on an entry that leaves one out).
 */
export interface OperatorDefinition {
  readonly create: OperatorFactory;
  /** The answer depends on the input and the parameter alone, and a call changes nothing but
   *  captures: a leading CRS setup rule using it may be run once at load (rules/init-fold.ts). */
  readonly pure: boolean;
  /** A match does more than answer (fills GEO, asks the network): a negated rule using it may not
   *  remember its misses, since for it a miss is a match (rules/miss-bits.ts). */
  readonly effectsOnMatch: boolean;
  /** For a parameter without macros: the bytes every matching input holds one of, so the rule can
   *  be skipped on values holding none (rules/byte-gate.ts). Null: the operator has no such bound. */
  readonly requiredBytes: ((param: string) => RequiredBytes) | null;
}

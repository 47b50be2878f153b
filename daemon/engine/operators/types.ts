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

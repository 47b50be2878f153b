// What a variable may read from a transaction. The Transaction implements it; keeping it an
// interface lets the variables be tested without a whole engine.
import type { KeyedList, VarEntry } from '../collections/keyed-list.js';
import type { MutableCollection } from '../collections/mutable-collection.js';
import type { ParsedRequest } from '../request/parsed-request.js';
import type { ParsedBody } from '../request/parsed-body.js';
import type { EngineResponse } from '../request/model.js';

export interface MatchedValue {
  /** Full variable name as ModSecurity prints it: `ARGS:id`, `REQUEST_URI`. */
  readonly name: string;
  readonly value: string;
}

/** The rule being evaluated, for RULE.* macros. */
export interface RuleFacts {
  readonly id: number;
  readonly rev?: string;
  readonly severity?: number;
  readonly ver?: string;
  readonly msgText?: string;
  readonly logdataText?: string;
}

export interface VariableContext {
  /** The phase being evaluated (1-5): REQUEST_FILENAME differs between 1 and 2, as in v2. */
  readonly phase: number;
  readonly request: ParsedRequest;
  /** Phase 2 and later; NO_BODY before or when the body was not read. */
  readonly body: ParsedBody;
  /** REQBODY_PROCESSOR: the processor that ran, else the one chosen so far (ctl, Content-Type). */
  readonly reqbodyProcessor: string;
  /** ARGS: ARGS_GET then ARGS_POST. */
  readonly args: KeyedList;
  readonly response: EngineResponse | undefined;
  readonly responseHeaders: KeyedList;
  readonly responseBody: string | undefined;
  readonly tx: MutableCollection;
  /** IP, GLOBAL, SESSION, USER, RESOURCE once initcol/setsid/setuid opened them. */
  persistent(name: string): MutableCollection | undefined;
  readonly geo: MutableCollection;
  readonly env: MutableCollection;
  readonly matchedVar: MatchedValue | undefined;
  readonly matchedVars: readonly MatchedValue[];
  readonly uniqueId: string;
  /** Epoch ms when the transaction started. */
  readonly startedAt: number;
  /** DURATION in microseconds. */
  durationMicros(): number;
  /** Lowest severity number seen on a matched rule (0 = EMERGENCY), 255 when none. */
  readonly highestSeverity: number;
  readonly rule: RuleFacts | undefined;
  readonly urlencodedError: boolean;
  readonly inboundDataError: boolean;
  readonly sessionId: string;
  readonly userId: string;
  readonly webAppId: string;
  /** Scalar variables' entries of this transaction, by name (see definition.ts). */
  readonly scalarCache: Map<string, VarEntry[]>;
}

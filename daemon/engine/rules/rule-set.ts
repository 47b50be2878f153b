// The compiled rule set: chain-starting rules per phase, in configuration order, plus the
// engine settings the configuration chose. Immutable once loaded.
import type { Rule } from './rule.js';
import type { EngineMode } from '../actions/context.js';
import type { MissMemo } from './miss-memo.js';
import type { InitFold } from './init-fold.js';
import type { MissSummaries } from './miss-summaries.js';
import type { CompiledTarget } from '../variables/targets.js';

export interface EngineSettings {
  ruleEngine: EngineMode;
  requestBodyAccess: boolean;
  /** SecRequestBodyLimit: bytes of request body read (multipart included). */
  requestBodyLimit: number;
  /** SecRequestBodyNoFilesLimit: bytes of non-file body (everything but multipart files). */
  requestBodyNoFilesLimit: number;
  requestBodyLimitAction: 'Reject' | 'ProcessPartial';
  responseBodyAccess: boolean;
  responseBodyLimit: number;
  responseBodyLimitAction: 'Reject' | 'ProcessPartial';
  responseBodyMimeTypes: string[];
  argumentSeparator: string;
  /** SecArgumentsLimit: arguments a request may have (query and body); every multipart part counts. */
  argumentsLimit: number;
  /** SecRequestBodyJsonDepthLimit. */
  requestBodyJsonDepthLimit: number;
  /** SecCollectionTimeout, seconds. */
  collectionTimeout: number;
  auditEngine: string;
  auditLogParts: string;
  webAppId: string;
  componentSignatures: string[];
}

export function defaultEngineSettings(): EngineSettings {
  return {
    ruleEngine: 'Off',
    requestBodyAccess: false,
    requestBodyLimit: 134217728,
    requestBodyNoFilesLimit: 1048576,
    requestBodyLimitAction: 'Reject',
    responseBodyAccess: false,
    responseBodyLimit: 524288,
    responseBodyLimitAction: 'Reject',
    responseBodyMimeTypes: ['text/plain', 'text/html'],
    argumentSeparator: '&',
    argumentsLimit: 1000,
    requestBodyJsonDepthLimit: 10000,
    collectionTimeout: 3600,
    auditEngine: 'Off',
    auditLogParts: 'ABCFHZ',
    webAppId: 'default',
    componentSignatures: [],
  };
}

export interface RuleSet {
  /** phases[1..5]: chain starters (and SecActions) in configuration order. */
  readonly phases: ReadonlyArray<readonly Rule[]>;
  readonly settings: Readonly<EngineSettings>;
  /** Rules (chain starters) by id. */
  readonly byId: ReadonlyMap<number, Rule>;
  /** Number of distinct transformation steps (sizes the per-transaction cache). */
  readonly transformSteps: number;
  /** Per byte: trigger bits of the transformations it could make do something (transform-chain.ts). */
  readonly byteClasses: Int32Array;
  /** Number of distinct exclusion groups (sizes the per-transaction cache). */
  readonly exclusionGroups: number;
  /** Number of target slots kept per phase (rules/target-slots.ts). */
  readonly targetSlots: number;
  /** 32-bit words of a value's operator-miss bits (rules/miss-bits.ts). */
  readonly missWords: number;
  /** Per miss group (rules/miss-groups.ts): one target per slot the group's rules read. */
  readonly missGroups: ReadonlyArray<readonly CompiledTarget[]>;
  /** Reusable per-phase ANDs of miss bits (rules/miss-summaries.ts). */
  readonly missSummaries: MissSummaries;
  /** Operator misses by value, kept across this set's transactions (rules/miss-memo.ts). */
  readonly missMemo: MissMemo;
  /** Phase 1's leading constant rules, run once at load: TX as they leave it, which phase 1 starts
   *  from instead of running them (rules/init-fold.ts); undefined when nothing folded. */
  initFold?: InitFold;
}

// One HTTP exchange through the rule set: phases 1-5, each returning an Interruption or
// null. Holds the per-request state the rules read and write (TX, matched variables, ctl
// changes, the transformation cache); everything compiled lives in the RuleSet.
import { randomBytes } from 'node:crypto';

// UNIQUE_ID: a random per-process prefix and a counter: unique without a random draw per request.
const ID_PREFIX = randomBytes(9).toString('base64url');
let idCounter = 0;

function nextUniqueId(): string {
  idCounter = (idCounter + 1) % Number.MAX_SAFE_INTEGER;
  return `${ID_PREFIX}${idCounter.toString(36).padStart(8, '0')}`;
}
import type { Rule } from './rules/rule.js';
import type { RuleSet } from './rules/rule-set.js';
import type { RuleMatch, Interruption } from './rules/match.js';
import { transformedValue, type TransformStep } from './rules/transform-chain.js';
import { evaluatePhase, effectiveDisruptive } from './rules/evaluate.js';
import type { DistinctValues } from './rules/distinct-values.js';
import type { ActionContext, TransactionSettings } from './actions/context.js';
import { SEVERITY_NAMES } from './actions/severity.js';
import type { MatchedValue, RuleFacts } from './variables/context.js';
import { withoutSelected, type CompiledTarget, type ExclusionGroup, type TargetExclusion } from './variables/targets.js';
import type { VarEntry } from './collections/keyed-list.js';
import { KeyedList, EMPTY_LIST } from './collections/keyed-list.js';
import { MutableCollection } from './collections/mutable-collection.js';
import type { PersistentCollectionStore } from './collections/persistent-store.js';
import type { OperatorRuntime } from './operators/types.js';
import type { BodyProcessor } from './body-processors/types.js';
import type { EngineRequest, EngineResponse } from './request/model.js';
import { ParsedRequest } from './request/parsed-request.js';
import { ParsedBody, NO_BODY } from './request/parsed-body.js';
import { chosenBodyProcessor, readRequestBody } from './request/body-stage.js';
import { cachedMacro } from './macros/macro-cache.js';
import type { RulePredicate } from './actions/context.js';
import { TimeBudget, type PhaseStart } from './budget/time-budget.js';
import { longestInput } from './budget/longest-input.js';
import { TransactionMisses } from './rules/transaction-misses.js';

/** A MATCHED_VARS cell: reused from rule to rule (recordMatch). */
type MutableMatchedValue = { -readonly [K in keyof MatchedValue]: MatchedValue[K] };

const CAPTURE_KEYS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];

/** What a transaction needs from its WAF. */
export interface TransactionHost {
  readonly ruleSet: RuleSet;
  readonly bodyProcessors: ReadonlyMap<string, BodyProcessor>;
  readonly store: PersistentCollectionStore;
}

interface TargetRemoval {
  applies: RulePredicate;
  exclusion: TargetExclusion;
}

export class Transaction implements ActionContext {
  readonly request: ParsedRequest;
  body: ParsedBody = NO_BODY;
  /** As ModSecurity: set at the request headers (phase 1 sees it, ctl:requestBodyProcessor changes
   *  it) and kept when the body is empty; once a processor ran, the one that ran. */
  get reqbodyProcessor(): string {
    return this.body !== NO_BODY ? this.body.processor : chosenBodyProcessor(this.settings, this.request.header('content-type') ?? '');
  }
  args: KeyedList;
  response: EngineResponse | undefined;
  responseHeaders: KeyedList = EMPTY_LIST;
  responseBody: string | undefined;
  readonly tx = new MutableCollection('TX');
  // GEO and ENV are made on first use: few transactions touch them.
  private geoCollection: MutableCollection | undefined;
  private envCollection: MutableCollection | undefined;
  private readonly opened = new Map<string, MutableCollection>();
  matchedVar: MatchedValue | undefined;
  /** The current rule's matches (MATCHED_VARS) are the first `matchedCount` cells of one list kept
   *  for the transaction: a new array per matching rule cost ~190 bytes of garbage each (a first
   *  push gives an empty array 17 slots), ~15 KB per proxied GET (~75 rules match, most of them
   *  the paranoia-level skips). */
  private readonly matchedList: MutableMatchedValue[] = [];
  private matchedCount = 0;
  readonly uniqueId: string;
  readonly startedAt = Date.now();
  private readonly startedHr = process.hrtime.bigint();
  highestSeverity = 255;
  urlencodedError = false;
  inboundDataError = false;
  sessionId = '';
  userId = '';
  readonly webAppId: string;
  readonly settings: TransactionSettings;
  readonly matches: RuleMatch[] = [];
  interruption: Interruption | null = null;
  /** Why the request body was over the engine's limits (Reject); set in DetectionOnly too, where it
   *  interrupts nothing and phase 2 reads what was kept, so a caller can still report it. */
  bodyOverLimit: string | undefined;
  /** allow:phase (or allow) stopped the current phase. */
  allowedPhase = false;
  private allowedUntil = 0;
  private currentStarter: Rule | undefined;
  private removedRules: RulePredicate[] = [];
  private targetRemovals: TargetRemoval[] = [];
  readonly scalarCache = new Map<string, VarEntry[]>();
  /** Entries per target slot (rules/target-slots.ts) for the phase being run. */
  readonly slotEntries: Array<readonly VarEntry[] | undefined>;
  /** Per target slot: the distinct values (leaders) of its entries when some repeat, else null;
   *  undefined until asked for (rules/distinct-values.ts). */
  readonly slotDistinct: Array<DistinctValues | null | undefined>;
  private slotPhase = 0;
  /** Operator misses known for this transaction's values (rules/transaction-misses.ts). */
  readonly misses: TransactionMisses;
  private readonly exclusionSources: Array<readonly VarEntry[] | undefined>;
  private readonly exclusionResults: Array<readonly VarEntry[]>;
  private readonly runtime: OperatorRuntime & { capturing: boolean };
  phase = 0;
  /** CPU-time budget for evaluating the rules (budget/time-budget.ts); none by default. */
  private budget: TimeBudget | undefined;

  constructor(private readonly host: TransactionHost, request: EngineRequest) {
    const engine = host.ruleSet.settings;
    this.request = new ParsedRequest(request, engine.argumentSeparator);
    this.args = this.request.argsGet;
    this.uniqueId = nextUniqueId();
    this.webAppId = engine.webAppId;
    this.settings = {
      ruleEngine: engine.ruleEngine,
      requestBodyAccess: engine.requestBodyAccess,
      requestBodyProcessor: undefined,
      forceRequestBodyVariable: false,
      requestBodyLimit: engine.requestBodyLimit,
      responseBodyAccess: engine.responseBodyAccess,
      auditEngine: engine.auditEngine,
      auditLogParts: engine.auditLogParts,
    };
    this.slotEntries = new Array(host.ruleSet.targetSlots);
    this.slotDistinct = new Array(host.ruleSet.targetSlots);
    this.misses = new TransactionMisses(host.ruleSet.missMemo, host.ruleSet.missSummaries, this.slotEntries, host.ruleSet.missGroups);
    this.exclusionSources = new Array(host.ruleSet.exclusionGroups);
    this.exclusionResults = new Array(host.ruleSet.exclusionGroups);
    const tx = this.tx;
    this.runtime = {
      capturing: false,
      budget: undefined,
      expandMacros: (text: string) => cachedMacro(text).expand(this),
      setCapture: (index: number, value: string) => {
        const key = CAPTURE_KEYS[index] ?? String(index);
        tx.setLowered(key, key, value);
      },
      unsetCapture: (index: number) => {
        if (index >= 0 && index <= 9) tx.deleteDigit(index);
        else tx.delete(String(index));
      },
      setGeo: (fields: Record<string, string>) => {
        this.geo.clear();
        for (const [key, value] of Object.entries(fields)) this.geo.set(key, value);
      },
    };
  }

  // ---- phases -------------------------------------------------------------------------

  private runPhase(phase: number, clock?: PhaseStart): Interruption | null {
    if (this.interruption || this.settings.ruleEngine === 'Off') return this.interruption;
    if (phase <= this.allowedUntil && phase !== 5) return null;
    if (phase !== this.slotPhase) {
      // Request, body and response data only change between phases.
      this.slotEntries.fill(undefined);
      this.slotDistinct.fill(undefined);
      this.misses.newPhase();
      this.slotPhase = phase;
    }
    this.phase = phase;
    this.allowedPhase = false;
    const ruleSet = this.host.ruleSet;
    // Phase 1 starts where its folded leading rules would have left TX (rules/init-fold.ts).
    if (phase === 1 && ruleSet.initFold !== undefined) this.tx.loadTemplate(ruleSet.initFold.template);
    const rules = ruleSet.phases[phase];
    if (this.budget === undefined) evaluatePhase(this, rules);
    else this.budget.runPhase(phase, longestInput(this, phase), () => evaluatePhase(this, rules), () => this.currentStarter?.id, clock);
    return this.interruption;
  }

  /** Limits the CPU time of rule evaluation (and body parsing) over all phases to `ms` (0: no
   *  limit). Past it, the phase throws EngineBudgetExceeded and the transaction is finished.
   *  `stretchAtLeast`: wall ms its watchdogs allow per ms of CPU, at least (budget/time-budget.ts). */
  setTimeBudget(ms: number, stretchAtLeast = 1): void {
    this.budget = ms > 0 ? new TimeBudget(ms, undefined, stretchAtLeast) : undefined;
    this.runtime.budget = this.budget;
  }

  processRequestHeaders(): Interruption | null {
    return this.runPhase(1);
  }

  processRequestBody(): Interruption | null {
    if (this.interruption || this.settings.ruleEngine === 'Off') return this.interruption;
    // Parsing the body holds the loop too: it runs on phase 2's clock, with checkpoints inside.
    const budget = this.budget;
    const clock = budget?.startClock();
    const checkpoint = clock === undefined || !this.request.body?.length ? undefined : () => budget!.checkSince(clock, 2);
    const stage = readRequestBody(this.request, this.settings, this.host.ruleSet.settings, this.host.bodyProcessors, checkpoint);
    this.body = stage.body;
    this.args = this.request.argsGet.concat(stage.body.argsPost);
    this.inboundDataError = stage.inboundDataError;
    this.urlencodedError = stage.urlencodedError;
    if (stage.overLimit) this.bodyOverLimit = stage.limitMessage ?? 'Request body over the engine\'s limits';
    if (stage.overLimit && this.settings.ruleEngine === 'On') {
      this.interruption = { action: 'deny', status: 413, ruleId: 0, phase: 2, msg: stage.limitMessage };
      return this.interruption;
    }
    return this.runPhase(2, clock);
  }

  /** Phases 1 and 2. */
  processRequest(): Interruption | null {
    return this.processRequestHeaders() ?? this.processRequestBody();
  }

  processResponseHeaders(response: EngineResponse): Interruption | null {
    this.response = response;
    this.responseHeaders = KeyedList.fromPairs(response.headers);
    return this.runPhase(3);
  }

  processResponseBody(body?: Buffer): Interruption | null {
    if (body !== undefined && this.settings.responseBodyAccess) {
      const limit = this.host.ruleSet.settings.responseBodyLimit;
      this.responseBody = body.subarray(0, limit).toString('latin1');
    }
    return this.runPhase(4);
  }

  processLogging(): void {
    const saved = this.interruption;
    this.interruption = null;
    this.runPhase(5);
    this.interruption = saved;
  }

  get geo(): MutableCollection {
    return (this.geoCollection ??= new MutableCollection('GEO'));
  }

  get env(): MutableCollection {
    return (this.envCollection ??= new MutableCollection('ENV'));
  }

  // ---- state the evaluator uses -------------------------------------------------------

  beginRule(starter: Rule): void {
    this.currentStarter = starter;
    this.matchedCount = 0;
  }

  operatorRuntime(capture: boolean): OperatorRuntime {
    this.runtime.capturing = capture;
    return this.runtime;
  }

  /** `entry.value` after `step` (and its parents), cached on the entry's leader by step. */
  transform(entry: VarEntry, step: TransformStep): string {
    return transformedValue(entry.leader, step, this.host.ruleSet.byteClasses, this.host.ruleSet.transformSteps);
  }

  /** Per byte: the transformation trigger bits (rules/transform-chain.ts). */
  get byteClasses(): Int32Array {
    return this.host.ruleSet.byteClasses;
  }

  isRemoved(rule: Rule): boolean {
    for (const predicate of this.removedRules) if (predicate(rule)) return true;
    return false;
  }

  /** True once a ctl:ruleRemoveBy* ran in this transaction. */
  get removesRules(): boolean {
    return this.removedRules.length > 0;
  }

  /** True once a ctl:ruleRemoveTargetBy* ran in this transaction. */
  get removesTargets(): boolean {
    return this.targetRemovals.length > 0;
  }

  /** `entries` without the names an exclusion group removes (`!REQUEST_COOKIES:/__utm/`). */
  withoutGroup(group: ExclusionGroup, entries: readonly VarEntry[]): readonly VarEntry[] {
    // Rules sharing a group filter the same list once (for variables not kept per phase).
    if (this.exclusionSources[group.index] === entries) return this.exclusionResults[group.index];
    const result = withoutSelected(entries, group.selectors);
    this.exclusionSources[group.index] = entries;
    this.exclusionResults[group.index] = result;
    return result;
  }

  /** `entries` of `target` without what ctl:ruleRemoveTargetBy* removed for the current rule. */
  withoutRemovedTargets(target: CompiledTarget, entries: readonly VarEntry[]): readonly VarEntry[] {
    const starter = this.currentStarter!;
    const name = target.variable.name;
    let result = entries;
    for (const r of this.targetRemovals) {
      if (r.exclusion.variableName === name && r.applies(starter)) result = withoutSelected(result, [r.exclusion]);
    }
    return result;
  }

  /** Sets MATCHED_VAR and adds to MATCHED_VARS. */
  private recordMatch(name: string, value: string): void {
    // The list's cells are reused from rule to rule (an object per match was ~3 KB of garbage per
    // GET). Safe because everything that reads them copies the strings out (MATCHED_VARS entries,
    // describeMatch, macros), and MATCHED_VAR is always the cell written last.
    let cell = this.matchedList[this.matchedCount];
    if (cell === undefined) {
      cell = { name, value };
      this.matchedList[this.matchedCount] = cell;
    } else {
      cell.name = name;
      cell.value = value;
    }
    this.matchedCount++;
    this.matchedVar = cell;
  }

  onMatch(rule: Rule, starter: Rule, name: string, value: string): void {
    if (rule.operator !== undefined) this.recordMatch(name, value);
    for (const effect of rule.effects) effect(this);
    if (rule.chained) return;
    const disruptive = effectiveDisruptive(starter);
    const enforcing = this.settings.ruleEngine === 'On';
    const blocks = disruptive.kind === 'deny' || disruptive.kind === 'drop' || disruptive.kind === 'redirect';
    if (starter.severity !== undefined && starter.severity < this.highestSeverity) this.highestSeverity = starter.severity;
    if (starter.log) this.matches.push(this.describeMatch(starter, enforcing && blocks));
    if (!enforcing) return;
    if (blocks) {
      const kind = disruptive.kind as Interruption['action'];
      this.interruption = {
        action: kind,
        status: starter.status ?? (kind === 'redirect' ? 302 : 403),
        ruleId: starter.id,
        phase: this.phase,
        ...(disruptive.redirectUrl ? { redirectUrl: disruptive.redirectUrl.expand(this) } : {}),
      };
    } else if (disruptive.kind === 'allow') {
      this.allowedPhase = true;
      if (disruptive.allowScope === '') this.allowedUntil = 4;
      else if (disruptive.allowScope === 'request') this.allowedUntil = 2;
    }
  }

  private describeMatch(starter: Rule, disruptive: boolean): RuleMatch {
    const op = starter.operator;
    return {
      id: starter.id,
      phase: starter.phase,
      file: starter.file,
      line: starter.line,
      msg: starter.msg ? starter.msg.expand(this) : '',
      data: starter.logdata ? starter.logdata.expand(this) : '',
      severity: starter.severity === undefined ? '' : SEVERITY_NAMES[starter.severity],
      tags: starter.tags,
      ver: starter.ver ?? '',
      rev: starter.rev ?? '',
      maturity: starter.maturity,
      accuracy: starter.accuracy,
      matchedVarName: this.matchedVar?.name ?? '',
      matchedValue: this.matchedVar?.value ?? '',
      operator: op ? `${op.negated ? '!' : ''}@${op.name} ${op.param}` : '',
      disruptive,
    };
  }

  // ---- VariableContext / ActionContext ------------------------------------------------

  /** MATCHED_VARS, read by few rules: copies (the cells are rewritten by the next rule's matches). */
  get matchedVars(): readonly MatchedValue[] {
    const out: MatchedValue[] = [];
    for (let i = 0; i < this.matchedCount; i++) out.push({ name: this.matchedList[i].name, value: this.matchedList[i].value });
    return out;
  }

  get rule(): RuleFacts | undefined {
    const s = this.currentStarter;
    if (s === undefined) return undefined;
    return { id: s.id, rev: s.rev, severity: s.severity, ver: s.ver, msgText: s.msg?.text, logdataText: s.logdata?.text };
  }

  durationMicros(): number {
    return Number(process.hrtime.bigint() - this.startedHr) / 1000;
  }

  now(): number {
    return Date.now();
  }

  persistent(name: string): MutableCollection | undefined {
    return this.opened.get(name);
  }

  collectionFor(name: string): MutableCollection | undefined {
    if (name === 'TX') return this.tx;
    if (name === 'ENV') return this.env;
    if (name === 'GEO') return this.geo;
    return this.opened.get(name);
  }

  openPersistent(collection: string, key: string): void {
    const record = this.host.store.open(collection, key, this.now());
    this.opened.set(collection, record);
    if (collection === 'SESSION') this.sessionId = key;
    if (collection === 'USER') this.userId = key;
  }

  removeRules(predicate: RulePredicate): void {
    this.removedRules = [...this.removedRules, predicate];
  }

  removeTargets(predicate: RulePredicate, exclusion: TargetExclusion): void {
    this.targetRemovals = [...this.targetRemovals, { applies: predicate, exclusion }];
  }
}

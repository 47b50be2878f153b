import type { Waf } from '../engine/waf.js';
import type { Transaction } from '../engine/transaction.js';
import type { RuleMatch as EngineMatch } from '../engine/rules/match.js';
import { EngineBudgetExceeded } from '../engine/budget/time-budget.js';
import type { InspectedRequest, ResponseHeadVerdict, ResponseInspection, RuleMatch, Verdict } from '../proxy/inspector.js';
import type { Severity } from '../proxy/events.js';
import { engineRequestFrom, engineHeaders } from './engine-request.js';
import { isCmsRuleId } from './cms-rule-ids.js';

// One request's engine transaction across all five phases: phases 1-2 when the request arrives
// (request()), 3-4 on the origin's response (head(), body()), 5 after it (logging()). Each step
// reports only the matches logged since the last one, so an event is never sent twice.
//
// A phase watchdog stops by wall time; when it stopped a step that still had CPU time left, the
// worker was waiting for a core, and the verdict must not depend on that (DESIGN.md rule 12): the
// transaction runs again from the start (phases 1-2, then the response steps already taken, then
// this one) with watchdogs stretched by the share of a core the stopped run got (at least twice as
// long each time, three reruns at most). Rules are a function of the exchange, so the rerun judges
// it as the first run would have.

const COUNTER_PREFIX = 'wafctl_counter_';
const MAX_RERUN_STRETCH = 16;
const MAX_RERUNS = 3;

export class EngineExchange implements ResponseInspection {
  private tx: Transaction;
  private stretch = 1;
  /** A step threw for good: the transaction is finished. */
  private failed = false;
  /** tx.matches already reported as events. */
  private reported = 0;
  private responseHead: { status: number; headers: Array<[string, string]> } | null = null;
  private responseBody: { body: Buffer | null } | null = null;
  /** The steps that completed (what a rerun replays). */
  private readonly done = { request: false, head: false, body: false };

  constructor(private readonly waf: Waf, private readonly request: InspectedRequest, private readonly budgetMs: number) {
    this.tx = this.fresh();
  }

  /** Phases 1-2: the request's verdict (with this exchange as its response side when the site wants it). */
  run(): Verdict | null {
    const interruption = this.withReruns(() => this.tx.processRequest());
    this.done.request = true;
    const matches = this.newMatches();
    // The engine refused by itself (a request body over its limits, ModSecurity's 413; in detect
    // mode it only notes it): no rule logged it, so the event names the engine and says why.
    const tx = this.tx;
    const bodyLimit = interruption === null ? tx.bodyOverLimit : interruption.ruleId === 0 ? interruption.msg ?? tx.bodyOverLimit : undefined;
    if (bodyLimit !== undefined) {
      matches.push({ ruleId: 'body-limit', group: 'edge', file: 'edge/engine', msg: bodyLimit, severity: 'CRITICAL', matchedVar: 'REQUEST_BODY' });
    }
    const counters: string[] = [];
    for (const name of tx.tx.namesStartingWith(COUNTER_PREFIX)) counters.push(name.slice(COUNTER_PREFIX.length));
    const response = this.request.site.responses === true ? this : undefined;
    if (interruption === null && matches.length === 0 && counters.length === 0 && response === undefined) return null;
    return { block: this.blocks(interruption !== null), matches, counters, response };
  }

  head(status: number, headers: ReadonlyArray<readonly [string, string]>): ResponseHeadVerdict {
    this.responseHead = { status, headers: engineHeaders(headers) };
    const interruption = this.withReruns(() => this.tx.processResponseHeaders(this.responseHead!));
    this.done.head = true;
    const settings = this.waf.ruleSet.settings;
    return {
      verdict: this.verdict(interruption !== null),
      // ctl:responseBodyAccess in phases 1-3 changes the setting for this transaction only.
      wantsBody: this.tx.settings.responseBodyAccess && inspectedType(headers, settings.responseBodyMimeTypes),
      bodyLimit: settings.responseBodyLimit,
    };
  }

  body(body: Buffer | null, partial: boolean): Verdict | null {
    this.responseBody = { body };
    const interruption = this.withReruns(() => this.tx.processResponseBody(body ?? undefined));
    this.done.body = true;
    const verdict = this.verdict(interruption !== null);
    if (!partial || this.waf.ruleSet.settings.responseBodyLimitAction !== 'Reject') return verdict;
    // SecResponseBodyLimitAction Reject (base settings say ProcessPartial): a body over the limit
    // is refused as ModSecurity does; the event names the engine since no rule logged it.
    const over: RuleMatch = {
      ruleId: 'response-body-limit', group: 'edge', file: 'edge/engine', severity: 'CRITICAL', matchedVar: 'RESPONSE_BODY',
      msg: `Response body over the engine's limit (${this.waf.ruleSet.settings.responseBodyLimit} bytes)`,
    };
    return { block: this.blocks(true), matches: [...(verdict?.matches ?? []), over] };
  }

  logging(): RuleMatch[] {
    // A transaction that threw (over its budget, or an engine fault) is finished: the failure was
    // reported and answered once; phase 5 on it would only report it again.
    if (this.failed) return [];
    this.withReruns(() => this.tx.processLogging());
    return this.newMatches();
  }

  private verdict(interrupted: boolean): Verdict | null {
    const matches = this.newMatches();
    if (!interrupted && matches.length === 0) return null;
    return { block: this.blocks(interrupted), matches };
  }

  /** A detect-mode site runs as DetectionOnly, so nothing interrupts; checked again all the same. */
  private blocks(interrupted: boolean): boolean {
    return interrupted && this.request.site.mode === 'on';
  }

  private fresh(): Transaction {
    const tx = this.waf.newTransaction(engineRequestFrom(this.request));
    // Detect mode is ModSecurity's DetectionOnly: a disruptive rule logs and the phases go on, so
    // every rule that would fire is reported. Run as On, the first deny (base-settings' 200003 on a
    // multipart body with LF line ends) ended phase 2 before CRS's 922 part-header rules ran.
    if (this.request.site.mode === 'detect' && tx.settings.ruleEngine === 'On') tx.settings.ruleEngine = 'DetectionOnly';
    if (this.budgetMs > 0) tx.setTimeBudget(this.budgetMs, this.stretch);
    return tx;
  }

  private withReruns<T>(step: () => T): T {
    let attempt = step;
    for (let rerun = 0; ; rerun++) {
      try {
        return attempt();
      } catch (err) {
        if (!(err instanceof EngineBudgetExceeded && err.stoppedWaiting && rerun < MAX_RERUNS)) {
          this.failed = true;
          throw err;
        }
        this.stretch = Math.min(MAX_RERUN_STRETCH, Math.max(this.stretch * 2, err.wallPerCpu * 1.25));
        attempt = () => { this.replay(); return step(); };
      }
    }
  }

  /** A fresh transaction brought to where the stopped one was before the current step: the steps
   *  done so far run again (their matches were reported already and are skipped by count). */
  private replay(): void {
    this.tx = this.fresh();
    if (this.done.request) this.tx.processRequest();
    if (this.done.head && this.responseHead !== null) this.tx.processResponseHeaders(this.responseHead);
    if (this.done.body && this.responseBody !== null) this.tx.processResponseBody(this.responseBody.body ?? undefined);
  }

  private newMatches(): RuleMatch[] {
    const out: RuleMatch[] = [];
    const all = this.tx.matches;
    for (let i = this.reported; i < all.length; i++) {
      const m = all[i];
      if (m.msg !== '') out.push(eventMatch(m)); // bookkeeping rules (scores, flags) log nothing
    }
    this.reported = all.length;
    return out;
  }
}

function eventMatch(match: EngineMatch): RuleMatch {
  return {
    ruleId: String(match.id),
    group: isCmsRuleId(match.id) ? 'cms' : 'crs',
    file: match.file,
    msg: match.msg,
    severity: severityOf(match.severity),
    matchedVar: match.matchedVarName || undefined,
    matchedData: match.data || undefined,
    tags: match.tags.length > 0 ? match.tags : undefined,
  };
}

function severityOf(name: string): Severity {
  if (name === 'WARNING') return 'WARNING';
  if (name === 'NOTICE' || name === 'INFO' || name === 'DEBUG' || name === '') return 'NOTICE';
  return 'CRITICAL';
}

/**
 * Whether the response's media type is one SecResponseBodyMimeType names (type/subtype, any case,
 * parameters ignored). A response without Content-Type counts as text/html: browsers sniff such a
 * body and render an HTML error page, so leaving it unread would be a way around the body rules.
 */
export function inspectedType(headers: ReadonlyArray<readonly [string, string]>, types: readonly string[]): boolean {
  let value: string | undefined;
  for (const [name, v] of headers) if (name.length === 12 && name.toLowerCase() === 'content-type') { value = v; break; }
  const type = value === undefined ? 'text/html' : value.split(';', 1)[0].trim().toLowerCase();
  return types.includes(type);
}

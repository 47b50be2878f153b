import type { Waf } from '../engine/waf.js';
import { EngineBudgetExceeded } from '../engine/budget/time-budget.js';
import type { InspectedRequest, RequestInspector, RuleMatch, Verdict } from '../proxy/inspector.js';
import type { Severity } from '../proxy/events.js';
import { engineRequestFrom } from './engine-request.js';
import type { RuleGroups } from './rule-groups.js';

// The edge's RequestInspector backed by the SecLang engine: one transaction per request through
// phases 1 and 2, its logged matches as WAF events, its interruption as the block. A site in
// detect mode runs the same rules as DetectionOnly (nothing interrupts) and is never blocked.
// Rule counters are the TX variables `wafctl_counter_<name>` a rule set (see proxy/inspector.ts).
// Each site runs the rule set of its own settings (snapshot `waf.rules`, handed over as
// `request.site.rules`). With a time budget,
// a request the engine cannot finish within that much CPU time throws EngineBudgetExceeded
// (engine/budget/), which the edge refuses like a block (proxy/hardening/engine-failure.ts).

const COUNTER_PREFIX = 'wafctl_counter_';
const CMS_FIRST_ID = 200100; // 200000-200004 are ModSecurity's base rules (waf/base-settings.conf)
const CMS_LAST_ID = 200999;

export interface EngineInspectorOptions {
  /** CPU ms per request for the rules (the daemon's --waf-time-budget-ms); 0 or absent: none. */
  timeBudgetMs?: number;
}

/** Where the inspector gets each site's compiled rule set: the daemon's RuleGroups; the CRS
 *  conformance suite hands in CRS CI's rule set for every site (test/crs/harness/). */
export type RuleSetSource = Pick<RuleGroups, 'forSite' | 'forParanoia'>;

export function createEngineInspector(groups: RuleSetSource, options: EngineInspectorOptions = {}): RequestInspector {
  const budgetMs = options.timeBudgetMs ?? 0;
  return {
    wantsBody: () => true,
    inspect: (request) => inspect(wafFor(groups, request.site), request, budgetMs),
  };
}

function wafFor(groups: RuleSetSource, site: InspectedRequest['site']): Waf {
  // Without the settings (an edge that does not pass them), the default rules at the site's level.
  return site.rules ? groups.forSite(site.id, site.rules) : groups.forParanoia(site.paranoia);
}

/** How far a request's watchdogs stretch at most when it runs again, and how often it may. */
const MAX_RERUN_STRETCH = 16;
const MAX_RERUNS = 3;

function inspect(waf: Waf, request: InspectedRequest, budgetMs: number): Verdict | null {
  // A phase watchdog stops by wall time; when it stopped a request that still had CPU time left, the
  // worker was waiting for a core, and the verdict must not depend on that (DESIGN.md rule 12): the
  // request runs again from the start with watchdogs stretched by the share of a core the stopped
  // run got (at least twice as long each time, three reruns at most). Rules are a function of the
  // request, so the rerun judges it as the first run would have; only persistent collections
  // (initcol, unused by CRS at its defaults) would see the stopped run's updates too.
  let stretch = 1;
  for (let rerun = 0; ; rerun++) {
    try {
      return inspectOnce(waf, request, budgetMs, stretch);
    } catch (err) {
      if (!(err instanceof EngineBudgetExceeded && err.stoppedWaiting && rerun < MAX_RERUNS)) throw err;
      // Long enough for the share of a core the stopped run got, and at least twice the last.
      stretch = Math.min(MAX_RERUN_STRETCH, Math.max(stretch * 2, err.wallPerCpu * 1.25));
    }
  }
}

function inspectOnce(waf: Waf, request: InspectedRequest, budgetMs: number, stretch: number): Verdict | null {
  const tx = waf.newTransaction(engineRequestFrom(request));
  // Detect mode is ModSecurity's DetectionOnly: a disruptive rule logs and the phases go on, so
  // every rule that would fire is reported. Run as On, the first deny (base-settings' 200003 on a
  // multipart body with LF line ends) ended phase 2 before CRS's 922 part-header rules ran.
  if (request.site.mode === 'detect' && tx.settings.ruleEngine === 'On') tx.settings.ruleEngine = 'DetectionOnly';
  if (budgetMs > 0) tx.setTimeBudget(budgetMs, stretch);
  const interruption = tx.processRequest();
  const matches: RuleMatch[] = [];
  for (const match of tx.matches) {
    if (match.msg === '') continue; // bookkeeping rules (scores, flags) log nothing
    matches.push({
      ruleId: String(match.id),
      group: match.id >= CMS_FIRST_ID && match.id <= CMS_LAST_ID ? 'cms' : 'crs',
      file: match.file,
      msg: match.msg,
      severity: severityOf(match.severity),
      matchedVar: match.matchedVarName || undefined,
      matchedData: match.data || undefined,
      tags: match.tags.length > 0 ? match.tags : undefined,
    });
  }
  // The engine refused by itself (a request body over its limits, ModSecurity's 413; in detect
  // mode it only notes it): no rule logged it, so the event names the engine and says why.
  const bodyLimit = interruption === null ? tx.bodyOverLimit : interruption.ruleId === 0 ? interruption.msg ?? tx.bodyOverLimit : undefined;
  if (bodyLimit !== undefined) {
    matches.push({
      ruleId: 'body-limit', group: 'edge', file: 'edge/engine', msg: bodyLimit,
      severity: 'CRITICAL', matchedVar: 'REQUEST_BODY',
    });
  }
  const counters: string[] = [];
  for (const name of tx.tx.namesStartingWith(COUNTER_PREFIX)) counters.push(name.slice(COUNTER_PREFIX.length));
  if (interruption === null && matches.length === 0 && counters.length === 0) return null;
  return { block: interruption !== null && request.site.mode === 'on', matches, counters };
}

function severityOf(name: string): Severity {
  if (name === 'WARNING') return 'WARNING';
  if (name === 'NOTICE' || name === 'INFO' || name === 'DEBUG' || name === '') return 'NOTICE';
  return 'CRITICAL';
}

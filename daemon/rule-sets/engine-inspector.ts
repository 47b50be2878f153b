import type { Waf } from '../engine/waf.js';
import type { InspectedRequest, RequestInspector, Verdict } from '../proxy/inspector.js';
import { EngineExchange } from './engine-exchange.js';
import type { RuleGroups } from './rule-groups.js';

// The edge's RequestInspector backed by the SecLang engine: one transaction per request through
// phases 1 and 2, its logged matches as WAF events, its interruption as the block; for a site that
// inspects responses the verdict carries the same transaction's phases 3-5 (engine-exchange.ts). A site in
// detect mode runs the same rules as DetectionOnly (nothing interrupts) and is never blocked.
// Rule counters are the TX variables `wafctl_counter_<name>` a rule set (see proxy/inspector.ts).
// Each site runs the rule set of its own settings (snapshot `waf.rules`, handed over as
// `request.site.rules`). With a time budget,
// a request the engine cannot finish within that much CPU time throws EngineBudgetExceeded
// (engine/budget/), which the edge refuses like a block (proxy/hardening/engine-failure.ts).

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

function inspect(waf: Waf, request: InspectedRequest, budgetMs: number): Verdict | null {
  return new EngineExchange(waf, request, budgetMs).run();
}

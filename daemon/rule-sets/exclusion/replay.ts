// Runs a rebuilt request through a compiled rule set, as the edge's inspector does (phases 1-2),
// and says whether the engine would refuse it and which scoring rules still match. The verdict is
// the engine's interruption, whatever the site's mode: a detect-mode site is asked "would this
// block once the mode is on".
import type { EngineRequest } from '../../engine/request/model.js';
import type { Waf } from '../../engine/waf.js';
import { engineHeaders } from '../engine-request.js';
import { isBookkeepingRule } from './exclusion-plan.js';

export interface ReplayVerdict {
  blocked: boolean;
  /** Rules that matched and log (bookkeeping 949/959/980 rules left out), in match order, once each. */
  matching: string[];
}

export function replay(waf: Waf, request: EngineRequest): ReplayVerdict {
  const tx = waf.newTransaction({ ...request, headers: engineHeaders(request.headers) });
  const interruption = tx.processRequest();
  const matching: string[] = [];
  for (const match of tx.matches) {
    const id = String(match.id);
    if (match.msg === '' || isBookkeepingRule(id) || matching.includes(id)) continue;
    matching.push(id);
  }
  return { blocked: interruption !== null, matching };
}

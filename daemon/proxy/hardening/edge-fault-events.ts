import type { EdgeRequest } from '../edge-request.js';
import { ruleEvent } from '../edge-events.js';
import type { WafEvent } from '../events.js';

// WAF events for what the edge decided without a rule: the engine failed on a request or ran out of
// its time budget, or a body was too large to inspect. Group `edge`, files under `edge/`, so they sort apart from rule matches.

export function engineErrorEvent(req: EdgeRequest, blocked: boolean): WafEvent {
  return ruleEvent(req, {
    ruleId: 'engine-error', group: 'edge', file: 'edge/engine',
    msg: blocked ? 'WAF engine failed on this request: refused (fail-closed)' : 'WAF engine failed on this request: forwarded uninspected (fail-open)',
    severity: 'CRITICAL',
  }, blocked);
}

/** The request ran out of the engine's time budget (engine-failure.ts): refused like a block. */
export function engineBudgetEvent(req: EdgeRequest, budgetMs: number, ruleId: number | undefined, blocked: boolean): WafEvent {
  const at = ruleId === undefined ? '' : ` (at rule ${ruleId})`;
  return ruleEvent(req, {
    ruleId: 'engine-budget', group: 'edge', file: 'edge/engine',
    msg: `Request too costly to inspect within the engine's time budget of ${budgetMs} ms${at}: ${blocked ? 'refused' : 'forwarded (detect mode)'}`,
    severity: 'CRITICAL',
  }, blocked);
}

export function bodyOverLimitEvent(req: EdgeRequest, limitBytes: number): WafEvent {
  return ruleEvent(req, {
    ruleId: 'body-over-limit', group: 'edge', file: 'edge/body-limit',
    msg: `Request body over the inspection limit (${limitBytes} bytes): forwarded with the body uninspected`,
    severity: 'WARNING',
    matchedVar: 'REQUEST_BODY',
  }, false);
}

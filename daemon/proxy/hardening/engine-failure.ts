// What the edge does when the WAF engine gives no verdict. Two cases that look alike and are not:
// - the engine failed (a bug, a rejected promise): the site's `on_engine_error` decides, closed (a
//   500 page) by default, open (forwarded uninspected) when the operator chose availability;
// - the request ran out of the engine's time budget: that is a property of the request (a value
//   built for the regexes' worst cases costs the same every time), so an attacker could choose
//   fail-open at will (security review M1). Such a request is refused like a rule block, whatever
//   `on_engine_error` says; a site in detect mode logs it and forwards it, as it does any block.
import type { EdgeRequest } from '../edge-request.js';
import type { WafEvent } from '../events.js';
import { engineBudgetEvent, engineErrorEvent } from './edge-fault-events.js';

export type EngineFailure =
  /** Refuse with the site's block response (403 / 404 / drop), as for a rule block. */
  | { kind: 'block'; event: WafEvent }
  /** Refuse with a 500 page: the engine failed, the site fails closed. */
  | { kind: 'error'; event: WafEvent }
  /** Forward: the site fails open, or is in detect mode. */
  | { kind: 'forward'; event: WafEvent };

/** Whether `err` is the engine's budget running out (EngineBudgetExceeded, matched by its code so
 *  that an error from another realm or a worker's copy is recognised too). */
export function isBudgetExceeded(err: unknown): err is { code: 'ENGINE_BUDGET_EXCEEDED'; budgetMs: number; ruleId?: number } {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'ENGINE_BUDGET_EXCEEDED';
}

export function engineFailure(edge: EdgeRequest, err: unknown): EngineFailure {
  const { waf } = edge.site;
  if (isBudgetExceeded(err)) {
    const blocked = waf.mode === 'on';
    return { kind: blocked ? 'block' : 'forward', event: engineBudgetEvent(edge, err.budgetMs, err.ruleId, blocked) };
  }
  const closed = waf.onError === 'closed';
  return { kind: closed ? 'error' : 'forward', event: engineErrorEvent(edge, closed) };
}

/** The daemon log's line for the operator (the page says nothing internal): a failed engine is an
 *  error with its stack; a request over the budget a warning naming the budget and the rule. */
export function reportEngineFailure(requestId: string, failure: EngineFailure, err: unknown): void {
  if (isBudgetExceeded(err)) console.warn(`edge: request ${requestId} ${failure.kind === 'block' ? 'refused' : 'forwarded (detect mode)'}: ${(err as unknown as Error).message}`);
  else console.error(`edge: WAF engine failed on request ${requestId}:`, err);
}

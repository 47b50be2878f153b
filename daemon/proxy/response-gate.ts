import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { EdgeRequest } from './edge-request.js';
import { ruleEvent } from './edge-events.js';
import type { EventSink } from './events.js';
import { engineFailure, reportEngineFailure } from './hardening/engine-failure.js';
import type { ResponseGate } from './inspecting-relay.js';
import type { ResponseInspection, Verdict } from './inspector.js';
import { page } from './pages.js';
import { DROPPED_STATUS, drop, sendPage, siteBlockPage } from './respond.js';

// What the edge does with the response phases' outcomes, the same as with the request's: every
// match is a WAF event (the RESPONSE-95x rule ids, group crs), a block in mode `on` answers with
// the site's block response (403 / 404 / drop) and a detect-mode site only logs; an engine failure
// follows hardening/engine-failure.ts (over the time budget: refused like a block; another failure:
// the site's on_engine_error).

export interface GateTarget {
  /** Marks the request blocked for its access entry. */
  blocked(): void;
}

export function responseGate(edge: EdgeRequest, sink: EventSink, res: ServerResponse, socket: Duplex, target: GateTarget): ResponseGate {
  const answer = () => {
    target.blocked();
    const p = siteBlockPage(edge.site.blockResponse, edge.requestId);
    if (p === 'drop') { res.statusCode = DROPPED_STATUS; drop(socket); } else sendPage(res, p);
  };
  return {
    blocks(verdict: Verdict | null): boolean {
      if (verdict === null) return false;
      const blocked = verdict.block && edge.site.waf.mode === 'on';
      for (const m of verdict.matches) sink.waf(ruleEvent(edge, m, blocked));
      return blocked;
    },
    refuse: answer,
    failed(err: unknown): boolean {
      const failure = engineFailure(edge, err);
      reportEngineFailure(edge.requestId, failure, err);
      sink.waf(failure.event);
      if (failure.kind === 'forward') return true;
      if (failure.kind === 'error') { target.blocked(); sendPage(res, page(500, edge.requestId)); } else answer();
      return false;
    },
  };
}

/** Phase 5 after the response (CRS 980): its matches as events, before the access entry. They are
 *  part of the request's record, so a blocked request's are recorded as blocked too (`wafctl logs`
 *  says "blocked" on every row of it). Never throws: the response is over, a failing engine can
 *  only be reported. */
export function logPhase(edge: EdgeRequest, sink: EventSink, exchange: ResponseInspection, blocked: boolean): void {
  try {
    for (const m of exchange.logging()) sink.waf(ruleEvent(edge, m, blocked));
  } catch (err) {
    reportEngineFailure(edge.requestId, engineFailure(edge, err), err);
  }
}

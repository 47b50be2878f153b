import type { Duplex } from 'node:stream';
import type { EdgeRequest } from '../edge-request.js';
import type { WafEvent } from '../events.js';
import { siteView } from '../inspected-request.js';
import type { InspectedRequest, RequestInspector, RuleMatch } from '../inspector.js';
import { engineFailure, reportEngineFailure } from './engine-failure.js';

// The site's rules on a request the edge refuses before its handler (a head node's parser
// refused, read by refused-head.ts; CONNECT): phases 1 and 2 with no body, as ModSecurity runs
// them on a request Apache hands it, so the rule ids it would log (911100, 920100, 934120...) are
// logged here too. The request is refused whatever the rules say; they only choose between the
// edge's own answer and the site's block response (unparsed-requests.ts). The engine's time
// budget applies as to any request; a failure or an exhausted budget is logged and changes
// nothing (the refusal stands).

export interface RefusedRequestView {
  readonly method: string;
  readonly target: string;
  readonly protocol: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
}

export interface RefusedVerdict {
  /** The rules' matches (logged with action block when `block`, else log). */
  readonly matches: RuleMatch[];
  /** The site is in `on` mode and its rules would block. */
  readonly block: boolean;
  /** The engine gave no verdict: its event. */
  readonly failure?: WafEvent;
}

const NOTHING: RefusedVerdict = { matches: [], block: false };

export async function inspectRefused(inspector: RequestInspector, edge: EdgeRequest, view: RefusedRequestView, socket: Duplex): Promise<RefusedVerdict> {
  const { site } = edge;
  if (site.waf.mode === 'off' || site.status !== 'active') return NOTHING;
  const s = socket as Duplex & { remotePort?: number; localAddress?: string; localPort?: number };
  const request: InspectedRequest = {
    requestId: edge.requestId, method: view.method, uri: view.target, target: view.target, protocol: view.protocol, headers: view.headers,
    clientAddr: edge.client.text, clientPort: s.remotePort ?? 0, serverAddr: s.localAddress ?? '', serverPort: s.localPort ?? 0,
    body: null, site: siteView(site),
  };
  try {
    const verdict = await inspector.inspect(request);
    if (!verdict) return NOTHING;
    // No response will follow: phase 5 (CRS 980's logging rules) runs now, as ModSecurity runs it
    // after the error page.
    const logged = verdict.response ? verdict.response.logging() : [];
    return { matches: [...verdict.matches, ...logged], block: verdict.block && site.waf.mode === 'on' };
  } catch (err) {
    const failure = engineFailure(edge, err);
    reportEngineFailure(edge.requestId, failure, err);
    return { matches: [], block: failure.kind === 'block', failure: failure.event };
  }
}

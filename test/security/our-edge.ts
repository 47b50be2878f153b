import { Edge } from '../../daemon/proxy/edge.js';
import type { RequestInspector } from '../../daemon/proxy/inspector.js';
import { buildEdgeSnapshot } from '../../daemon/proxy/snapshot.js';
import type { SiteInput } from '../../daemon/proxy/snapshot-input.js';
import { RecordingSink } from '../daemon/proxy/helpers.js';
import { HOST } from './probe-catalogue.js';

// Our edge as a site runs it: the real Edge over real sockets with the real engine and CRS, the
// WAF on at paranoia 1, /wp-admin open only to an address no test client has. The edge under
// test also has the settings that forward most: `onError: 'open'` (an engine failure forwards the
// request) with the daemon's default time budget (40 ms), so an attacker who can make the engine
// fail or run out of time would show as a bypass. The judge (`judge: true`) runs the same rules
// with no budget and fails closed: it says what the rules make of a request given all the time
// they need. `naive` is the edge with the WAF off and no page protection: a proxy that forwards
// everything, which the harness must flag (the check that it can fail).

export interface RunningEdge {
  port: number;
  sink: RecordingSink;
  close(): Promise<void>;
}

/** The daemon's default `waf_time_budget_ms` (daemon/options/option-table.ts). */
export const DEFAULT_TIME_BUDGET_MS = 40;

const PAGE_PROTECTION = [{ path: '/wp-admin', allow: ['192.0.2.1'] }];

export interface EdgeKind {
  kind: 'under-test' | 'judge' | 'naive';
  maxBodyBytes?: number;
}

export async function startOurEdge(originUrl: string, inspector: RequestInspector, options: EdgeKind): Promise<RunningEdge> {
  const settings: Record<EdgeKind['kind'], Partial<SiteInput>> = {
    'under-test': { waf: { mode: 'on', paranoia: 1, onError: 'open' }, pageProtection: PAGE_PROTECTION },
    judge: { waf: { mode: 'on', paranoia: 1, onError: 'closed' }, pageProtection: PAGE_PROTECTION },
    naive: { waf: { mode: 'off' } },
  };
  const site: SiteInput = { id: 1, domain: HOST, origin: originUrl, ...settings[options.kind] };
  const sink = new RecordingSink();
  const edge = new Edge({ snapshot: buildEdgeSnapshot({ sites: [site] }), sink, inspector, maxBodyBytes: options.maxBodyBytes });
  const port = await edge.listenHttp({ port: 0, host: '127.0.0.1' });
  return { port, sink, close: () => edge.close() };
}

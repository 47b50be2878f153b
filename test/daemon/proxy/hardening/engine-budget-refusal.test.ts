import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineBudgetExceeded } from '../../../../daemon/engine/budget/time-budget.js';
import type { InspectedRequest, RequestInspector } from '../../../../daemon/proxy/inspector.js';
import { request, startEdge, type RunningEdge } from '../helpers.js';
import { startRecordingOrigin, type RecordingOrigin } from './raw-client.js';

// A request that runs out of the engine's time budget is a property of the request (a value built
// for the regexes' worst cases costs the same every time), so it is refused like a rule block,
// whatever the site's on_engine_error: fail-open must not be the attacker's choice (security review M1).
// A site in detect mode forwards it with the event, as it does every block. The engine itself is
// in test/reliability/engine-time-budget.test.ts; here the edge's decision, for every setting.

const ID = /Request id: <code>([0-9a-f-]{36})<\/code>/;

/** The engine's answer to every request with a body: out of budget in phase 2 at 932100. */
class OverBudgetInspector implements RequestInspector {
  wantsBody(): boolean { return true; }
  inspect(request: InspectedRequest) {
    if (request.body === null) return null;
    if (request.uri.includes('/async')) return Promise.reject(new EngineBudgetExceeded(40, 40.2, 2, 932100));
    throw new EngineBudgetExceeded(40, 40.2, 2, 932100);
  }
}

describe('a request over the engine time budget', () => {
  let origin: RecordingOrigin;
  let edge: RunningEdge;
  beforeAll(async () => {
    origin = await startRecordingOrigin();
    const waf = (extra: { mode?: 'on' | 'detect'; onError?: 'open' }) => ({ waf: { mode: 'on' as const, paranoia: 1, ...extra } });
    edge = await startEdge([
      { id: 1, domain: 'closed.test', origin: origin.url },
      { id: 2, domain: 'open.test', origin: origin.url, ...waf({ onError: 'open' }) },
      { id: 3, domain: 'detect.test', origin: origin.url, ...waf({ mode: 'detect', onError: 'open' }) },
      { id: 4, domain: 'hidden.test', origin: origin.url, blockResponse: 404, ...waf({ onError: 'open' }) },
    ], { inspector: new OverBudgetInspector() });
  });
  afterAll(async () => { await edge.close(); await origin.close(); });

  const post = (host: string, path: string) => request({ port: edge.port, host, method: 'POST', path, body: 'q=' + '|'.repeat(100) });
  const reached = (path: string) => origin.heads.filter((h) => h.url === path);

  it.each([
    ['closed.test', '/c'], ['closed.test', '/c/async'],
    ['open.test', '/o'], ['open.test', '/o/async'],
  ])('%s %s: refused with the block page and an engine-budget event, nothing forwarded', async (host, path) => {
    const r = await post(host, path);
    expect(r.status).toBe(403);
    expect(r.body.match(ID)?.[1]).toBe(r.headers['x-request-id']);
    expect(r.body).not.toMatch(/budget|932100/);
    expect(reached(path)).toEqual([]);
    expect(edge.sink.wafEvents.find((e) => e.request_id === r.headers['x-request-id'])).toMatchObject({
      rule_id: 'engine-budget', action: 'block', group: 'edge', severity: 'CRITICAL', uri: path,
      msg: "Request too costly to inspect within the engine's time budget of 40 ms (at rule 932100): refused",
    });
    expect(edge.sink.accessEntries.find((e) => e.request_id === r.headers['x-request-id'])).toMatchObject({ status: 403, blocked: true });
  });

  it("answers with the site's block response", async () => {
    const r = await post('hidden.test', '/h');
    expect(r.status).toBe(404);
    expect(reached('/h')).toEqual([]);
  });

  it('detect mode: forwarded, with the event', async () => {
    const r = await post('detect.test', '/d');
    expect(r.status).toBe(200);
    expect(reached('/d')).toHaveLength(1);
    expect(edge.sink.wafEvents.find((e) => e.request_id === r.headers['x-request-id'])).toMatchObject({ rule_id: 'engine-budget', action: 'log' });
  });
});

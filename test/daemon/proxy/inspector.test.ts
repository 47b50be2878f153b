import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InspectedRequest, RequestInspector, Verdict } from '../../../daemon/proxy/inspector.js';
import { buildEdgeSnapshot } from '../../../daemon/proxy/snapshot.js';
import type { SiteInput } from '../../../daemon/proxy/snapshot-input.js';
import { request, site, startEdge, startOrigin, webSocketEcho, type Origin, type RunningEdge } from './helpers.js';

// The seam to the WAF engine. The inspector here is a stand-in written for this test (the
// engine has its own tests); what is proven is the edge's side: what it hands over, when it
// buffers, and how it acts on a verdict per site mode.

class RecordingInspector implements RequestInspector {
  seen: InspectedRequest[] = [];
  wantsBody(site: InspectedRequest['site']): boolean {
    return site.domain === 'example.test';
  }
  inspect(req: InspectedRequest): Verdict | null | Promise<Verdict | null> {
    this.seen.push(req);
    const hit = req.uri.includes('attack') || (req.body?.toString().includes('attack') ?? false);
    if (!hit) return null;
    const verdict: Verdict = {
      block: req.site.mode === 'on',
      matches: [{ ruleId: '942100', group: 'crs', file: 'REQUEST-942-APPLICATION-ATTACK-SQLI.conf', msg: 'SQL Injection Attack Detected via libinjection', severity: 'CRITICAL', matchedVar: 'ARGS:id', matchedData: 'attack' }],
    };
    // Async answers are supported too.
    return req.uri.includes('async') ? Promise.resolve(verdict) : verdict;
  }
}

describe('request inspector seam', () => {
  let origin: Origin;
  let edge: RunningEdge;
  const inspector = new RecordingInspector();
  const use = (extra: Partial<SiteInput>) => edge.edge.setSnapshot(buildEdgeSnapshot({ sites: [site(origin, extra)] }));

  beforeAll(async () => {
    origin = await startOrigin();
    edge = await startEdge([site(origin)], { inspector, maxBodyBytes: 1000 });
  });
  afterAll(async () => { await edge.close(); await origin.close(); });

  it('hands the engine the raw request model and the buffered body, and forwards the same body', async () => {
    use({ waf: { mode: 'on', paranoia: 2 } });
    const r = await request({ port: edge.port, method: 'POST', path: '/form?a=%27x', body: 'name=ok&x=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Dup': 'one' } });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).body).toBe('name=ok&x=1');
    const seen = inspector.seen.at(-1)!;
    expect(seen).toMatchObject({ method: 'POST', uri: '/form?a=%27x', protocol: 'HTTP/1.1', clientAddr: '127.0.0.1', site: { id: 1, mode: 'on', paranoia: 2 } });
    expect(seen.headers).toContainEqual(['Content-Type', 'application/x-www-form-urlencoded']);
    expect(seen.body!.toString()).toBe('name=ok&x=1');
    expect(seen.serverPort).toBe(edge.port);
    expect(seen.clientPort).toBeGreaterThan(0);
  });

  it('blocks on a verdict in mode on, with events for the matches', async () => {
    use({ waf: { mode: 'on', paranoia: 1 } });
    for (const path of ['/?id=attack', '/async?id=attack']) {
      const r = await request({ port: edge.port, path });
      expect(r.status).toBe(403);
      expect(edge.sink.wafEvents.at(-1)).toMatchObject({ rule_id: '942100', group: 'crs', action: 'block', matched_var: 'ARGS:id', request_id: r.headers['x-request-id'] });
    }
    const body = await request({ port: edge.port, method: 'POST', path: '/', body: 'q=attack' });
    expect(body.status).toBe(403);
  });

  it('logs but forwards in detect mode, and skips the engine in mode off', async () => {
    use({ waf: { mode: 'detect', paranoia: 1 } });
    const r = await request({ port: edge.port, path: '/?id=attack' });
    expect(r.status).toBe(200);
    expect(edge.sink.wafEvents.at(-1)).toMatchObject({ rule_id: '942100', action: 'log' });
    expect(edge.sink.accessEntries.find((e) => e.request_id === r.headers['x-request-id'])).toMatchObject({ blocked: false });
    use({ waf: { mode: 'off', paranoia: 1 } });
    const n = inspector.seen.length;
    expect((await request({ port: edge.port, path: '/?id=attack' })).status).toBe(200);
    expect(inspector.seen.length).toBe(n);
  });

  it('refuses a body over the limit with 413 and passes nothing on', async () => {
    use({ waf: { mode: 'on', paranoia: 1 } });
    const before = origin.seen.length;
    const r = await request({ port: edge.port, method: 'POST', path: '/big', body: 'x'.repeat(5000) });
    expect(r.status).toBe(413);
    expect(origin.seen.length).toBe(before);
  });

  it('inspects WebSocket upgrade requests too', async () => {
    use({ waf: { mode: 'on', paranoia: 1 } });
    await expect(webSocketEcho(edge.port, 'example.test', 'x', '/socket?attack=1')).rejects.toThrow('no upgrade: 403');
    expect(edge.sink.wafEvents.at(-1)).toMatchObject({ rule_id: '942100', action: 'block' });
    expect((await webSocketEcho(edge.port, 'example.test', 'fine')).reply).toBe('fine');
  });

  it('does not inspect requests from whitelisted addresses', async () => {
    use({ waf: { mode: 'on', paranoia: 1 }, ipWhitelist: ['127.0.0.1'] });
    const n = inspector.seen.length;
    expect((await request({ port: edge.port, path: '/?id=attack' })).status).toBe(200);
    expect(inspector.seen.length).toBe(n);
  });

  it('uses the site block response for engine blocks too', async () => {
    use({ waf: { mode: 'on', paranoia: 1 }, blockResponse: 'drop' });
    await expect(request({ port: edge.port, path: '/?id=attack' })).rejects.toMatchObject({ code: 'ECONNRESET' });
  });
});

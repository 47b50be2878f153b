import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import net from 'node:net';
import { buildEdgeSnapshot } from '../../../daemon/proxy/snapshot.js';
import { request, site, startEdge, startOrigin, webSocketEcho, type Origin, type RunningEdge } from './helpers.js';

describe('edge forwarding (real origin, real sockets)', () => {
  let origin: Origin;
  let edge: RunningEdge;

  beforeAll(async () => {
    origin = await startOrigin();
    edge = await startEdge([
      site(origin, { aliases: ['www.example.test'] }),
      { id: 2, domain: 'off.test', origin: origin.url, status: 'inactive' },
      { id: 3, domain: 'gone.test', origin: origin.url, status: 'deleted' },
    ], { trustedProxies: ['10.9.0.0/16'] });
  });
  afterAll(async () => { await edge.close(); await origin.close(); });

  it('forwards with the original Host, X-Forwarded-* and X-Request-Id, and returns the origin response', async () => {
    const r = await request({ port: edge.port, path: '/a/b?x=1&y=%20', host: 'Example.TEST:8080', headers: { 'x-forwarded-for': '6.6.6.6', 'x-request-id': 'forged' } });
    expect(r.status).toBe(200);
    expect(r.headers['x-origin']).toBe('yes');
    expect(r.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    const seen = JSON.parse(r.body);
    expect(seen.url).toBe('/a/b?x=1&y=%20');
    expect(seen.headers.host).toBe('Example.TEST:8080');
    // The peer is not a trusted proxy: its X-Forwarded-For is replaced, not extended.
    expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen.headers['x-forwarded-proto']).toBe('http');
    expect(seen.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.headers['x-request-id']).toBe(seen.headers['x-request-id']);
    const access = edge.sink.accessEntries.find((e) => e.request_id === seen.headers['x-request-id']);
    expect(access).toMatchObject({ status: 200, method: 'GET', uri: '/a/b?x=1&y=%20', client_ip: '127.0.0.1', blocked: false, site_id: 1 });
    expect(access!.bytes_sent).toBeGreaterThan(r.body.length);
    expect(access!.upstream_time).toBeGreaterThanOrEqual(0);
  });

  it('routes aliases and streams request bodies', async () => {
    const body = 'x'.repeat(200_000);
    const r = await request({ port: edge.port, host: 'www.example.test', method: 'POST', path: '/upload', body, headers: { 'content-type': 'text/plain' } });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).body.length).toBe(200_000);
    // Chunked request bodies (no content-length) stream too.
    const chunked = await new Promise<string>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: edge.port, method: 'PUT', path: '/c', headers: { host: 'example.test', 'transfer-encoding': 'chunked' } }, (res) => {
        let text = ''; res.on('data', (c) => (text += c)); res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.write('part1-'); setTimeout(() => req.end('part2'), 20);
    });
    expect(JSON.parse(chunked).body).toBe('part1-part2');
  });

  it('answers 421 for an unknown host, 503 for inactive and deleted sites, and passes nothing on', async () => {
    const before = origin.seen.length;
    const unknown = await request({ port: edge.port, host: 'nobody.test' });
    expect(unknown.status).toBe(421);
    expect(unknown.body).toContain('Request id');
    expect((await request({ port: edge.port, host: 'off.test' })).status).toBe(503);
    expect((await request({ port: edge.port, host: 'gone.test' })).status).toBe(503);
    expect(origin.seen.length).toBe(before);
  });

  it('trusts X-Forwarded-For only from trusted proxies', async () => {
    // 127.0.0.1 is not trusted here: the header is ignored for the client address.
    await request({ port: edge.port, path: '/xff-1', headers: { 'x-forwarded-for': '8.8.8.8' } });
    expect(edge.sink.accessEntries.find((e) => e.uri === '/xff-1')!.client_ip).toBe('127.0.0.1');
    const trusting = await startEdge([site(origin)], { trustedProxies: ['127.0.0.0/8', '::1/128', '10.0.0.0/8'] });
    try {
      const r = await request({ port: trusting.port, path: '/xff-2', headers: { 'x-forwarded-for': '1.2.3.4, 8.8.8.8, 10.1.1.1' } });
      // Right to left, skipping trusted hops: 10.1.1.1 is trusted, 8.8.8.8 is the client.
      expect(trusting.sink.accessEntries.find((e) => e.uri === '/xff-2')!.client_ip).toBe('8.8.8.8');
      expect(trusting.sink.accessEntries.find((e) => e.uri === '/xff-2')!.country).toBe('US');
      expect(JSON.parse(r.body).headers['x-forwarded-for']).toBe('1.2.3.4, 8.8.8.8, 10.1.1.1, 127.0.0.1');
      await request({ port: trusting.port, path: '/xff-3', headers: { 'x-forwarded-for': 'garbage, 9.9.9.9' } });
      expect(trusting.sink.accessEntries.find((e) => e.uri === '/xff-3')!.client_ip).toBe('9.9.9.9');
    } finally { await trusting.close(); }
  });

  it('forwards an absolute-form request target as origin-form', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const s = net.connect(edge.port, '127.0.0.1', () => s.write('GET http://example.test/abs?x=1 HTTP/1.1\r\nHost: example.test\r\nConnection: close\r\n\r\n'));
      let text = '';
      s.on('data', (c) => (text += c));
      s.on('end', () => resolve(text));
      s.on('error', reject);
    });
    expect(raw.startsWith('HTTP/1.1 200')).toBe(true);
    // The body may come chunked: take the JSON object out of it.
    expect(JSON.parse(/\{.*\}/s.exec(raw)![0]).url).toBe('/abs?x=1');
  });

  it('serves an IPv6 client over ::1', async () => {
    const r = await request({ port: edge.port, address: '::1', path: '/v6' });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).headers['x-forwarded-for']).toBe('::1');
    expect(edge.sink.accessEntries.find((e) => e.uri === '/v6')!.client_ip).toBe('::1');
  });

  it('applies a new snapshot to the next request on an open keep-alive connection', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<net.Socket>();
    const first = await request({ port: edge.port, path: '/swap', agent });
    expect(first.status).toBe(200);
    const old = edge.edge.snapshot;
    edge.edge.setSnapshot(buildEdgeSnapshot({ sites: [site(origin, { ipBlacklist: ['127.0.0.1'] })] }));
    try {
      agent.on('free', (s) => sockets.add(s));
      const second = await request({ port: edge.port, path: '/swap', agent });
      expect(second.status).toBe(403);
      const third = await request({ port: edge.port, path: '/swap', agent });
      expect(third.status).toBe(403);
      // Same connection throughout: nothing was dropped.
      expect(sockets.size).toBe(1);
    } finally {
      edge.edge.setSnapshot(old);
      agent.destroy();
    }
  });

  it('passes a WebSocket upgrade through and echoes frames', async () => {
    const { reply, upgradeHeaders } = await webSocketEcho(edge.port, 'example.test', 'hello through the edge');
    expect(reply).toBe('hello through the edge');
    expect(upgradeHeaders['x-seen-forwarded-for']).toBe('127.0.0.1');
    // The checks apply to upgrades too.
    const blocked = await startEdge([site(origin, { ipBlacklist: ['127.0.0.1'] })]);
    try {
      await expect(webSocketEcho(blocked.port, 'example.test', 'x')).rejects.toThrow('no upgrade: 403');
    } finally { await blocked.close(); }
  });
});

describe('edge origin failures', () => {
  it('answers 502 with the request id when the origin is down', async () => {
    const dead = net.createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const port = (dead.address() as net.AddressInfo).port;
    await new Promise<void>((r) => dead.close(() => r()));
    const edge = await startEdge([{ id: 1, domain: 'example.test', origin: `http://127.0.0.1:${port}` }]);
    try {
      const r = await request({ port: edge.port });
      expect(r.status).toBe(502);
      expect(r.body).toContain(r.headers['x-request-id']);
      expect(r.body).not.toContain(String(port));
    } finally { await edge.close(); }
  });

  it('answers 504 when the origin is too slow', async () => {
    // The origin would answer 200 after 10 s: a 504 can only be the configured 1 s timeout (the
    // default is 60 s), and no wall-clock bound is needed to tell.
    const origin = await startOrigin();
    origin.delayMs = 10_000;
    const edge = await startEdge([site(origin)], { timeouts: { headersMs: 1_000 } });
    try {
      const r = await request({ port: edge.port });
      expect(r.status).toBe(504);
    } finally { await edge.close(); await origin.close(); }
  });

  it('serves a default site for unmatched hosts when one is marked', async () => {
    const origin = await startOrigin();
    const edge = await startEdge([site(origin), { id: 9, domain: 'fallback.test', origin: origin.url, isDefault: true }]);
    try {
      const r = await request({ port: edge.port, host: 'whatever.test' });
      expect(r.status).toBe(200);
      expect(edge.sink.accessEntries.at(-1)!.site_id).toBe(9);
    } finally { await edge.close(); await origin.close(); }
  });
});

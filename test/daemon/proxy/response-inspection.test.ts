import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCrs, RuleGroups } from '../../../daemon/rule-sets/rule-groups.js';
import { createEngineInspector } from '../../../daemon/rule-sets/engine-inspector.js';
import { startEdge, type RunningEdge } from './helpers.js';

// Response phases through the real edge, the real engine with CRS and a real origin on loopback:
// leaks are refused before the client gets a byte (plain and compressed), benign pages pass byte
// for byte, big pages stream past the 512 KB inspection limit, and the per-site switch and detect
// mode do what the README says.

const crs = findCrs('/usr/share/modsecurity-crs');
const KB = 1024;
const SQL_LEAK = 'You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near \'\'\' at line 1';
const PHP_LEAK = '<b>Fatal error</b>:  Uncaught Error: Call to undefined function foo() in /var/www/html/index.php on line <b>12</b>';

/** Deterministic HTML without anything CRS's response rules look for. */
function benignHtml(bytes: number, seed = 0): Buffer {
  const para = (i: number) => `<p class="c${(i + seed) % 7}">Paragraph ${i} of the catalogue: plain words about gardens, rivers and bread.</p>\n`;
  let out = '<!doctype html><html><head><title>Catalogue</title></head><body>\n';
  for (let i = 0; out.length < bytes - 20; i++) out += para(i);
  return Buffer.from((out + '</body></html>').padEnd(bytes, ' ').slice(0, bytes), 'latin1');
}

function withLeakAt(page: Buffer, at: number, leak: string): Buffer {
  return Buffer.concat([page.subarray(0, at), Buffer.from(leak), page.subarray(at)]);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

type Encoding = 'gzip' | 'br' | 'deflate' | 'deflate-raw';
function encode(body: Buffer, encoding: Encoding): Buffer {
  if (encoding === 'gzip') return zlib.gzipSync(body);
  if (encoding === 'br') return zlib.brotliCompressSync(body);
  if (encoding === 'deflate') return zlib.deflateSync(body);
  return zlib.deflateRawSync(body);
}

interface Route { status?: number; headers?: Record<string, string>; body?: Buffer; write?(res: http.ServerResponse): void }

describe.skipIf(crs === null)('response inspection (needs modsecurity-crs)', () => {
  const routes = new Map<string, Route>();
  let origin: http.Server;
  let originUrl: string;
  let edge: RunningEdge;

  beforeAll(async () => {
    origin = http.createServer((req, res) => {
      const route = routes.get((req.url ?? '').split('?')[0]);
      if (!route) { res.writeHead(404).end(); return; }
      if (route.write) { route.write(res); return; }
      res.writeHead(route.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...route.headers });
      res.end(req.method === 'HEAD' ? undefined : route.body);
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
    const groups = new RuleGroups(crs, { prepareAnnounced: false });
    groups.forParanoia(1);
    edge = await startEdge([
      { id: 1, domain: 'on.test', origin: originUrl },
      { id: 2, domain: 'off.test', origin: originUrl, responseInspection: false },
      { id: 3, domain: 'detect.test', origin: originUrl, waf: { mode: 'detect' } },
      { id: 4, domain: 'drop.test', origin: originUrl, blockResponse: 'drop' },
    ], { inspector: createEngineInspector(groups) });
  }, 120_000);

  afterAll(async () => {
    await edge?.close();
    origin?.closeAllConnections();
    await new Promise<void>((r) => (origin ? origin.close(() => r()) : r()));
  });

  /** The raw response (no decoding): status, headers, body bytes. */
  const fetchRaw = (host: string, path: string, method = 'GET', onFirstBytes?: () => void) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer; requestId: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: edge.port, path, method, headers: { host, 'user-agent': 'Mozilla/5.0 test', accept: 'text/html' } }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => { if (parts.length === 0) onFirstBytes?.(); parts.push(c); });
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts), requestId: String(res.headers['x-request-id']) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });

  const eventsOf = (requestId: string) => edge.sink.wafEvents.filter((e) => e.request_id === requestId);
  /** The access entry is written after phase 5's events: once it is there, every event is. */
  const settled = (requestId: string) => edge.sink.accessEntry((e) => e.request_id === requestId);

  it('refuses a page leaking a SQL error with the block page and an event naming the RESPONSE-951 rule', async () => {
    routes.set('/sql', { body: withLeakAt(benignHtml(20 * KB), 10 * KB, SQL_LEAK) });
    const r = await fetchRaw('on.test', '/sql');
    expect(r.status).toBe(403);
    expect(r.body.toString()).not.toContain('SQL syntax');
    const entry = await settled(r.requestId);
    expect(entry.blocked).toBe(true);
    const events = eventsOf(r.requestId);
    // As for requests: every match of a refused exchange is recorded with action block.
    expect(events.find((e) => e.rule_id.startsWith('951'))).toMatchObject({ group: 'crs', action: 'block' });
    expect(events.find((e) => e.rule_id === '959100')).toMatchObject({ group: 'crs', action: 'block' });
  });

  it('refuses a PHP fatal error page (RESPONSE-953)', async () => {
    routes.set('/php', { body: withLeakAt(benignHtml(30 * KB), 100, PHP_LEAK) });
    const r = await fetchRaw('on.test', '/php');
    expect(r.status).toBe(403);
    await settled(r.requestId);
    expect(eventsOf(r.requestId).some((e) => e.rule_id.startsWith('953'))).toBe(true);
  });

  it.each(['gzip', 'br', 'deflate', 'deflate-raw'] as const)('refuses the same leak compressed with %s (decoded for the engine)', async (encoding) => {
    routes.set(`/sql-${encoding}`, {
      headers: { 'content-encoding': encoding.startsWith('deflate') ? 'deflate' : encoding },
      body: encode(withLeakAt(benignHtml(100 * KB), 60 * KB, SQL_LEAK), encoding),
    });
    const r = await fetchRaw('on.test', `/sql-${encoding}`);
    expect(r.status).toBe(403);
    await settled(r.requestId);
    expect(eventsOf(r.requestId).some((e) => e.rule_id.startsWith('951'))).toBe(true);
  });

  it('passes a benign 200 KB page byte for byte', async () => {
    const page = benignHtml(200 * KB);
    routes.set('/benign', { body: page });
    const r = await fetchRaw('on.test', '/benign');
    expect(r.status).toBe(200);
    expect(sha(r.body)).toBe(sha(page));
    await settled(r.requestId);
    expect(eventsOf(r.requestId)).toEqual([]);
  });

  it.each(['gzip', 'br'] as const)('passes a benign %s page with the origin\'s compressed bytes and Content-Encoding', async (encoding) => {
    const wire = encode(benignHtml(150 * KB, 3), encoding);
    routes.set(`/benign-${encoding}`, { headers: { 'content-encoding': encoding, vary: 'Accept-Encoding' }, body: wire });
    const r = await fetchRaw('on.test', `/benign-${encoding}`);
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe(encoding);
    expect(sha(r.body)).toBe(sha(wire));
  });

  it('streams a 2 MB page: the client has its first bytes before the origin sends the last', async () => {
    const page = benignHtml(2048 * KB, 5);
    let clientHasBytes!: () => void;
    const firstBytes = new Promise<void>((r) => { clientHasBytes = r; });
    routes.set('/big', {
      write: (res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        // All but the last 64 KB, then wait for the client: an edge that held the whole page would never answer.
        res.write(page.subarray(0, page.length - 64 * KB));
        void firstBytes.then(() => res.end(page.subarray(page.length - 64 * KB)));
      },
    });
    const r = await fetchRaw('on.test', '/big', 'GET', clientHasBytes);
    expect(r.status).toBe(200);
    expect(sha(r.body)).toBe(sha(page));
  });

  it('inspects the first 512 KB of a big page: a leak at 400 KB of 2 MB is refused', async () => {
    routes.set('/big-leak-early', { body: withLeakAt(benignHtml(2048 * KB), 400 * KB, SQL_LEAK) });
    const r = await fetchRaw('on.test', '/big-leak-early');
    expect(r.status).toBe(403);
  });

  it('does not catch a leak past 512 KB (ProcessPartial, documented): the page streams as sent', async () => {
    const page = withLeakAt(benignHtml(1024 * KB), 600 * KB, SQL_LEAK);
    routes.set('/big-leak-late', { body: page });
    const r = await fetchRaw('on.test', '/big-leak-late');
    expect(r.status).toBe(200);
    expect(sha(r.body)).toBe(sha(page));
  });

  it('reads at most 512 KB of a gzip bomb: it passes untouched and a leak at its 8 MB mark is not seen', async () => {
    const bomb = zlib.gzipSync(Buffer.concat([Buffer.alloc(8 * 1024 * KB, 0x20), Buffer.from(SQL_LEAK)]));
    expect(bomb.length).toBeLessThan(64 * KB);
    routes.set('/bomb', { headers: { 'content-encoding': 'gzip' }, body: bomb });
    const r = await fetchRaw('on.test', '/bomb');
    expect(r.status).toBe(200);
    expect(sha(r.body)).toBe(sha(bomb));
  });

  it('a gzip bomb with the leak in its first 512 KB is refused all the same', async () => {
    const bomb = zlib.gzipSync(Buffer.concat([Buffer.from(SQL_LEAK), Buffer.alloc(8 * 1024 * KB, 0x20)]));
    routes.set('/bomb-early', { headers: { 'content-encoding': 'gzip' }, body: bomb });
    expect((await fetchRaw('on.test', '/bomb-early')).status).toBe(403);
  });

  it('a corrupt gzip body is inspected as far as it decodes, and the client gets the origin\'s bytes', async () => {
    const good = zlib.gzipSync(withLeakAt(benignHtml(50 * KB), 100, SQL_LEAK));
    const corrupt = Buffer.concat([good.subarray(0, good.length >> 1), Buffer.alloc(64, 0xff)]);
    routes.set('/corrupt', { headers: { 'content-encoding': 'gzip' }, body: corrupt });
    expect((await fetchRaw('on.test', '/corrupt')).status).toBe(403);
    const clean = Buffer.concat([zlib.gzipSync(benignHtml(50 * KB)).subarray(0, 4000), Buffer.alloc(64, 0xff)]);
    routes.set('/corrupt-clean', { headers: { 'content-encoding': 'gzip' }, body: clean });
    const r = await fetchRaw('on.test', '/corrupt-clean');
    expect(r.status).toBe(200);
    expect(sha(r.body)).toBe(sha(clean));
  });

  it('reads a body without Content-Type (browsers sniff it as HTML)', async () => {
    routes.set('/untyped', {
      write: (res) => { res.removeHeader('content-type'); res.writeHead(200); res.end(SQL_LEAK); },
    });
    expect((await fetchRaw('on.test', '/untyped')).status).toBe(403);
  });

  it('streams types the engine does not read (headers only): an image with the same text passes', async () => {
    const body = Buffer.from(SQL_LEAK);
    routes.set('/img', { headers: { 'content-type': 'image/png' }, body });
    const r = await fetchRaw('on.test', '/img');
    expect(r.status).toBe(200);
    expect(r.body.equals(body)).toBe(true);
  });

  it.each([
    ['HEAD', 200], ['GET', 204], ['GET', 304],
  ] as const)('%s with status %i: no body to read, no trouble', async (method, status) => {
    routes.set(`/nobody-${status}`, { status, body: status === 200 ? Buffer.from(SQL_LEAK) : undefined });
    const r = await fetchRaw('on.test', `/nobody-${status}`, method);
    expect(r.status).toBe(status);
    expect(r.body.length).toBe(0);
  });

  it('an empty 200 body passes', async () => {
    routes.set('/empty', { body: Buffer.alloc(0) });
    const r = await fetchRaw('on.test', '/empty');
    expect(r.status).toBe(200);
    expect(r.body.length).toBe(0);
  });

  it('with response inspection off, the leak streams untouched and no response phase runs', async () => {
    const page = withLeakAt(benignHtml(20 * KB), 10 * KB, SQL_LEAK);
    routes.set('/sql-off', { body: page });
    const r = await fetchRaw('off.test', '/sql-off');
    expect(r.status).toBe(200);
    expect(sha(r.body)).toBe(sha(page));
    await settled(r.requestId);
    expect(eventsOf(r.requestId)).toEqual([]);
  });

  it('a detect-mode site logs the leak and passes the page', async () => {
    const page = withLeakAt(benignHtml(20 * KB), 10 * KB, SQL_LEAK);
    routes.set('/sql-detect', { body: page });
    const r = await fetchRaw('detect.test', '/sql-detect');
    expect(r.status).toBe(200);
    expect(sha(r.body)).toBe(sha(page));
    const entry = await settled(r.requestId);
    expect(entry.blocked).toBe(false);
    const events = eventsOf(r.requestId);
    expect(events.some((e) => e.rule_id.startsWith('951'))).toBe(true);
    expect(events.every((e) => e.action === 'log')).toBe(true);
  });

  it('the site\'s block response applies: drop closes the connection without a byte', async () => {
    routes.set('/sql-drop', { body: Buffer.from(SQL_LEAK) });
    await expect(fetchRaw('drop.test', '/sql-drop')).rejects.toThrow(/ECONNRESET|socket hang up/);
  });

  it('runs phase 5 after the response: CRS 980 reports the scores of a refused response', async () => {
    routes.set('/sql-980', { body: Buffer.from(SQL_LEAK) });
    const r = await fetchRaw('on.test', '/sql-980');
    expect(r.status).toBe(403);
    await settled(r.requestId);
    expect(eventsOf(r.requestId).some((e) => e.rule_id.startsWith('980'))).toBe(true);
  });
});

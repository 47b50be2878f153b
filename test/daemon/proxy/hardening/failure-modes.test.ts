import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startEdge, type RunningEdge } from '../helpers.js';
import { rawExchange, ScriptedInspector, startRecordingOrigin, statusesOf, type RecordingOrigin } from './raw-client.js';

// What the edge does when something is wrong on its side: a body too large to inspect (the site's
// bodyOverLimit), an engine that throws (the site's waf.onError), an origin that is down or slow
// (502/504 with the request id and nothing internal), and a block in the middle of a pipelined
// keep-alive connection (the next request is still answered, in order, like nginx does).

const ID = /Request id: <code>([0-9a-f-]{36})<\/code>/;

describe('bodies over the inspection limit', () => {
  let origin: RecordingOrigin;
  let edge: RunningEdge;
  const inspector = new ScriptedInspector();
  beforeAll(async () => {
    origin = await startRecordingOrigin();
    edge = await startEdge([
      { id: 1, domain: 'reject.test', origin: origin.url },
      { id: 2, domain: 'pass.test', origin: origin.url, bodyOverLimit: 'pass' },
    ], { inspector, maxBodyBytes: 1000 });
  });
  afterAll(async () => { await edge.close(); await origin.close(); });

  it("'reject' (the default): 413 page, nothing forwarded", async () => {
    const heads = origin.heads.length;
    const r = await request({ port: edge.port, host: 'reject.test', method: 'POST', path: '/up', body: 'r'.repeat(5000) });
    expect(r.status).toBe(413);
    expect(r.body).toMatch(ID);
    expect(origin.heads.length).toBe(heads);
  });

  it("'pass': the whole body is forwarded uninspected, the head is still inspected, and a WAF event says so", async () => {
    const body = Buffer.from(Array.from({ length: 50_000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(''));
    const r = await request({ port: edge.port, host: 'pass.test', method: 'POST', path: '/up', body });
    expect(r.status).toBe(200);
    const got = origin.complete.find((c) => c.url === '/up' && c.body.length === body.length);
    expect(got?.body.equals(body)).toBe(true);
    const seen = inspector.seen.at(-1)!;
    expect(seen.uri).toBe('/up');
    expect(seen.body).toBeNull();
    // This request's event: another test's body may also have gone over the limit on this edge.
    const event = edge.sink.wafEvents.find((e) => e.rule_id === 'body-over-limit' && e.request_id === r.headers['x-request-id']);
    expect(event).toMatchObject({ action: 'log', group: 'edge', site_id: 2, uri: '/up' });
  });

  it("'pass' still blocks on what the head shows", async () => {
    const heads = origin.heads.length;
    const r = await request({ port: edge.port, host: 'pass.test', method: 'POST', path: '/blocked', body: 'b'.repeat(5000) });
    expect(r.status).toBe(403);
    expect(origin.heads.length).toBe(heads);
  });

  it('a body within the limit is inspected and forwarded as it was', async () => {
    const r = await request({ port: edge.port, host: 'pass.test', method: 'POST', path: '/small', body: 's'.repeat(1000) });
    expect(r.status).toBe(200);
    expect(inspector.seen.at(-1)!.body?.length).toBe(1000);
  });
});

describe('engine failures', () => {
  let origin: RecordingOrigin;
  let edge: RunningEdge;
  beforeAll(async () => {
    origin = await startRecordingOrigin();
    edge = await startEdge([
      { id: 1, domain: 'closed.test', origin: origin.url },
      { id: 2, domain: 'open.test', origin: origin.url, waf: { mode: 'on', paranoia: 1, onError: 'open' } },
    ], { inspector: new ScriptedInspector() });
  });
  afterAll(async () => { await edge.close(); await origin.close(); });

  it.each(['/boom', '/boom-async'])("fail-closed (the default) on %s: 500 page with the request id, a WAF event, nothing forwarded", async (path) => {
    const heads = origin.heads.length;
    const r = await request({ port: edge.port, host: 'closed.test', path });
    expect(r.status).toBe(500);
    const id = r.body.match(ID)?.[1];
    expect(id).toBe(r.headers['x-request-id']);
    expect(r.body).not.toMatch(/exploded|Error|at /);
    expect(origin.heads.length).toBe(heads);
    expect(edge.sink.wafEvents.find((e) => e.request_id === id)).toMatchObject({ rule_id: 'engine-error', action: 'block', group: 'edge', severity: 'CRITICAL' });
    expect(edge.sink.accessEntries.find((e) => e.request_id === id)).toMatchObject({ status: 500, blocked: true });
  });

  it('fail-open: forwarded, with a WAF event that says so', async () => {
    const r = await request({ port: edge.port, host: 'open.test', path: '/boom?x=1' });
    expect(r.status).toBe(200);
    expect(r.body).toBe('origin saw GET /boom?x=1 0');
    expect(edge.sink.wafEvents.find((e) => e.request_id === r.headers['x-request-id'])).toMatchObject({ rule_id: 'engine-error', action: 'log' });
  });

  it('a failing request does not disturb the others around it', async () => {
    const mixed = await Promise.all(Array.from({ length: 30 }, (_, i) =>
      request({ port: edge.port, host: 'closed.test', path: i % 3 === 0 ? `/boom/${i}` : `/fine/${i}` })));
    mixed.forEach((r, i) => expect(r.status).toBe(i % 3 === 0 ? 500 : 200));
  });
});

describe('origin down or slow', () => {
  it('origin refusing connections: 502 page with the request id, nothing internal', async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const edge = await startEdge([{ id: 1, domain: 'down.test', origin: `http://127.0.0.1:${port}` }]);
    try {
      const r = await request({ port: edge.port, host: 'down.test', path: '/x' });
      expect(r.status).toBe(502);
      expect(r.body.match(ID)?.[1]).toBe(r.headers['x-request-id']);
      for (const leak of [String(port), '127.0.0.1', 'ECONNREFUSED', 'undici', 'Error']) expect(r.body).not.toContain(leak);
      const allowed = new Set(['cache-control', 'connection', 'content-length', 'content-type', 'date', 'keep-alive', 'x-request-id']);
      expect(Object.keys(r.headers).filter((h) => !allowed.has(h))).toEqual([]);
    } finally {
      await edge.close();
    }
  });

  it('origin slower than the response-header timeout: 504 page, and the edge keeps serving', async () => {
    const origin = await startRecordingOrigin();
    // Wide margins both ways: the slow answer is far past the timeout, and the quick one (same
    // timeout) has a whole second to come back even on a loaded machine.
    const edge = await startEdge([{ id: 1, domain: 'slow.test', origin: origin.url }], { timeouts: { headersMs: 1_000 } });
    try {
      origin.delayMs = 10_000;
      const r = await request({ port: edge.port, host: 'slow.test', path: '/slow' });
      expect(r.status).toBe(504);
      expect(r.body.match(ID)?.[1]).toBe(r.headers['x-request-id']);
      expect(r.body).not.toContain(origin.url.split(':').at(-1)!);
      origin.delayMs = 0;
      expect((await request({ port: edge.port, host: 'slow.test', path: '/quick' })).status).toBe(200);
    } finally {
      await edge.close();
      await origin.close();
    }
  });
});

describe('keep-alive and pipelining after a block', () => {
  let origin: RecordingOrigin;
  let edge: RunningEdge;
  beforeAll(async () => {
    origin = await startRecordingOrigin();
    edge = await startEdge([{ id: 1, domain: 'example.test', origin: origin.url }], { inspector: new ScriptedInspector() });
  });
  afterAll(async () => { await edge.close(); await origin.close(); });

  const H = 'Host: example.test\r\n';

  it('two pipelined requests, the first blocked: 403 then the second answered, in order, connection kept', async () => {
    const heads = origin.heads.length;
    const socket = net.connect(edge.port, '127.0.0.1');
    socket.setEncoding('latin1');
    let text = '';
    let closed = false;
    const events: Array<() => void> = [];
    socket.on('data', (d: string) => { text += d; events.splice(0).forEach((f) => f()); });
    socket.on('close', () => { closed = true; events.splice(0).forEach((f) => f()); });
    socket.on('error', () => undefined);
    /** Resolves once `done` holds (checked on every byte and on close), or fails if the edge closes first. */
    const until = (done: () => boolean) => new Promise<void>((resolve, reject) => {
      const check = () => (done() ? resolve() : closed ? reject(new Error(`closed by the edge after: ${text}`)) : events.push(check));
      check();
    });
    try {
      socket.write(`GET /blocked HTTP/1.1\r\n${H}\r\nGET /after HTTP/1.1\r\n${H}\r\n`);
      await until(() => text.includes('origin saw GET /after 0'));
      expect(statusesOf(text)).toEqual([403, 200]);
      // nginx keeps a connection open after a 403; so does the edge: a later request on it is answered.
      socket.write(`GET /later HTTP/1.1\r\n${H}Connection: close\r\n\r\n`);
      await until(() => closed);
      expect(statusesOf(text)).toEqual([403, 200, 200]);
      expect(text).toContain('origin saw GET /later 0');
      expect(origin.heads.slice(heads).map((h) => h.url)).toEqual(['/after', '/later']);
    } finally {
      socket.destroy();
    }
  });

  it('a blocked request with a body: the body is skipped, the next request is read from the right place', async () => {
    const heads = origin.heads.length;
    const smuggled = `GET /smuggled HTTP/1.1\r\n${H}\r\n`;
    const reply = await rawExchange(edge.port,
      `POST /blocked HTTP/1.1\r\n${H}Content-Length: ${smuggled.length}\r\n\r\n${smuggled}GET /after HTTP/1.1\r\n${H}Connection: close\r\n\r\n`);
    expect(reply.statuses).toEqual([403, 200]);
    expect(origin.heads.slice(heads).map((h) => h.url)).toEqual(['/after']);
  });

  it('a blocked chunked request followed by another: the same', async () => {
    const heads = origin.heads.length;
    const reply = await rawExchange(edge.port,
      `POST /blocked HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\nGET /after2 HTTP/1.1\r\n${H}Connection: close\r\n\r\n`);
    expect(reply.statuses).toEqual([403, 200]);
    expect(origin.heads.slice(heads).map((h) => h.url)).toEqual(['/after2']);
  });
});

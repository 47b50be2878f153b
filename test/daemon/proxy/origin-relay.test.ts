import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { startEdge, type RunningEdge } from './helpers.js';

// What the origin relay (daemon/proxy/origin-relay.ts) and the flat header lists
// (forward-headers.ts) must keep: header rules both ways, streaming with backpressure both ways,
// HEAD / 1xx / chunked / content-length responses, and aborts in both directions. A scripted
// origin (node:http) and real client sockets on loopback.

interface Scripted {
  port: number;
  /** The last request head the origin saw, raw (name, value, ...). */
  lastRaw: string[];
  /** Per-path behaviour; default: 200 "ok". */
  routes: Map<string, (req: http.IncomingMessage, res: http.ServerResponse) => void>;
  close(): Promise<void>;
}

async function scriptedOrigin(): Promise<Scripted> {
  const o = { lastRaw: [], routes: new Map() } as unknown as Scripted;
  const server = http.createServer((req, res) => {
    o.lastRaw = req.rawHeaders;
    const route = o.routes.get(req.url ?? '/');
    if (route) { route(req, res); return; }
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  o.port = (server.address() as AddressInfo).port;
  o.close = () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); });
  return o;
}

/** One request over a raw socket; resolves with everything received until the server closes. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => s.write(text));
    let got = '';
    s.setEncoding('latin1');
    s.on('data', (d: string) => { got += d; });
    s.on('end', () => resolve(got));
    s.on('error', reject);
  });
}

function fields(rawHeaders: string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i < rawHeaders.length; i += 2) out.push([rawHeaders[i].toLowerCase(), rawHeaders[i + 1]]);
  return out;
}

const H = 'Host: example.test\r\n';

describe('origin relay (scripted origin, real sockets)', () => {
  let origin: Scripted;
  let edge: RunningEdge;

  beforeAll(async () => {
    origin = await scriptedOrigin();
    edge = await startEdge([{ id: 1, domain: 'example.test', origin: `http://127.0.0.1:${origin.port}` }],
      { timeouts: { headersMs: 2_000, bodyIdleMs: 2_000 } });
  });
  afterAll(async () => { await edge.close(); await origin.close(); });

  it('request: hop-by-hop and Connection-named fields stay behind, repeated fields go joined as node reads them', async () => {
    const reply = await raw(edge.port, `GET /h HTTP/1.1\r\n${H}Connection: close, X-Private\r\nX-Private: secret\r\nKeep-Alive: timeout=5\r\n`
      + 'TE: trailers\r\nProxy-Authorization: Basic eA==\r\nAccept: a/b\r\nAccept: c/d\r\nCookie: a=1\r\nCookie: b=2\r\n'
      + 'X-Forwarded-Proto: https\r\nX-Request-Id: forged\r\n\r\n');
    expect(reply).toMatch(/^HTTP\/1\.1 200/);
    const seen = fields(origin.lastRaw);
    const names = seen.map(([n]) => n);
    // The origin connection's own Connection field is undici's (a pooled keep-alive hop), not the client's.
    expect(seen.filter(([n]) => n === 'connection')).toEqual([['connection', 'keep-alive']]);
    for (const gone of ['x-private', 'keep-alive', 'te', 'proxy-authorization']) expect(names).not.toContain(gone);
    expect(seen.filter(([n]) => n === 'accept')).toEqual([['accept', 'a/b, c/d']]);
    expect(seen.filter(([n]) => n === 'cookie')).toEqual([['cookie', 'a=1; b=2']]);
    expect(seen.filter(([n]) => n === 'host')).toEqual([['host', 'example.test']]);
    // An untrusted peer's X-Forwarded-Proto and any X-Request-Id are replaced, each once.
    expect(seen.filter(([n]) => n === 'x-forwarded-proto')).toEqual([['x-forwarded-proto', 'http']]);
    const ids = seen.filter(([n]) => n === 'x-request-id');
    expect(ids).toHaveLength(1);
    expect(ids[0][1]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('response: hop-by-hop fields dropped, repeated Set-Cookie kept, bytes of values kept, X-Request-Id added', async () => {
    origin.routes.set('/r', (_req, res) => {
      // latin1: the bytes E9 and FC go out as they are, as nginx would pass them.
      res.writeHead(200, [['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2'], ['Connection', 'X-Hop'], ['X-Hop', 'no'],
        ['Keep-Alive', 'timeout=9'], ['X-Bytes', 'caf\u00e9 \u00fc'], ['Content-Length', '2']]);
      res.end(Buffer.from('hi')); // a Buffer body: node writes the head in latin1 (with a string body, in its encoding)
    });
    const reply = await raw(edge.port, `GET /r HTTP/1.1\r\n${H}Connection: close\r\n\r\n`);
    const head = reply.slice(0, reply.indexOf('\r\n\r\n')).toLowerCase();
    expect(head.match(/^set-cookie: .*$/gm)).toEqual(['set-cookie: a=1', 'set-cookie: b=2']);
    expect(head).not.toContain('x-hop');
    expect(head).not.toContain('timeout=9');
    expect(reply).toContain('caf\u00e9 \u00fc'); // latin1-decoded socket text: the same two bytes
    expect(head).toMatch(/^x-request-id: [0-9a-f-]{36}$/m);
    expect(reply.endsWith('\r\n\r\nhi')).toBe(true);
  });

  it('keeps the origin X-Request-Id when it sends one', async () => {
    origin.routes.set('/id', (_req, res) => { res.setHeader('X-Request-Id', 'from-origin'); res.end(); });
    const reply = await raw(edge.port, `GET /id HTTP/1.1\r\n${H}Connection: close\r\n\r\n`);
    expect(reply.toLowerCase().match(/^x-request-id: .*$/gm)).toEqual(['x-request-id: from-origin']);
  });

  it('HEAD, chunked and interim (103) responses', async () => {
    origin.routes.set('/head', (_req, res) => { res.writeHead(200, { 'content-length': '5' }); res.end(); });
    const head = await raw(edge.port, `HEAD /head HTTP/1.1\r\n${H}Connection: close\r\n\r\n`);
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    expect(head.toLowerCase()).toContain('content-length: 5');
    expect(head.endsWith('\r\n\r\n')).toBe(true);

    origin.routes.set('/chunked', (_req, res) => { res.write('part1-'); setTimeout(() => res.end('part2'), 20); });
    const chunked = await raw(edge.port, `GET /chunked HTTP/1.1\r\n${H}Connection: close\r\n\r\n`);
    expect(chunked.toLowerCase()).toContain('transfer-encoding: chunked');
    expect(chunked).toContain('part1-');
    expect(chunked).toContain('part2');

    origin.routes.set('/early', (_req, res) => {
      res.writeEarlyHints({ link: '</a.css>; rel=preload' }, () => res.end('after hints'));
    });
    const early = await raw(edge.port, `GET /early HTTP/1.1\r\n${H}Connection: close\r\n\r\n`);
    expect(early).toMatch(/^HTTP\/1\.1 200/);
    expect(early.endsWith('after hints')).toBe(true);
  });

  it('a response bigger than the socket buffers streams with backpressure: the origin waits for a client that does not read', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const total = 32 * 1024 * 1024;
    let written = 0;
    let stalled: () => void = () => {};
    const originStalled = new Promise<void>((r) => { stalled = r; });
    origin.routes.set('/big', (_req, res) => {
      res.writeHead(200, { 'content-length': String(total) });
      const pump = () => {
        while (written < total) {
          written += chunk.length;
          if (!res.write(chunk)) { stalled(); res.once('drain', pump); return; }
        }
        res.end();
      };
      pump();
    });
    const socket = net.connect(edge.port, '127.0.0.1');
    socket.write(`GET /big HTTP/1.1\r\n${H}Connection: close\r\n\r\n`);
    socket.pause();
    await originStalled;
    await new Promise((r) => setTimeout(r, 300));
    // Nothing read by the client: the origin got no further than the buffers on the way.
    expect(written).toBeLessThan(total / 2);
    let received = 0;
    socket.on('data', (d: Buffer) => { received += d.length; });
    socket.resume();
    await new Promise((r) => socket.on('end', r));
    expect(received).toBeGreaterThan(total);
    expect(written).toBe(total);
  });

  it('a request body streams to the origin with backpressure', async () => {
    let got = 0;
    origin.routes.set('/upload', (req, res) => {
      req.on('data', (d: Buffer) => { got += d.length; });
      req.on('end', () => res.end(String(got)));
    });
    const body = Buffer.alloc(8 * 1024 * 1024, 0x62);
    const reply = await new Promise<string>((resolve, reject) => {
      const req = http.request({ port: edge.port, host: '127.0.0.1', method: 'PUT', path: '/upload', agent: false, headers: { host: 'example.test', 'content-length': body.length } }, (res) => {
        let text = ''; res.on('data', (c) => (text += c)); res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(reply).toBe(String(body.length));
  });

  it('the client going away mid-response aborts the origin request; the access entry is still written', async () => {
    let originClosed: () => void = () => {};
    const aborted = new Promise<void>((r) => { originClosed = r; });
    origin.routes.set('/endless', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('tick\n'), 10);
      res.on('close', () => { clearInterval(timer); originClosed(); });
    });
    const socket = net.connect(edge.port, '127.0.0.1');
    socket.write(`GET /endless HTTP/1.1\r\n${H}\r\n`);
    await new Promise((r) => socket.once('data', r));
    socket.destroy();
    await aborted;
    expect(await edge.sink.accessEntry((e) => e.uri === '/endless')).toMatchObject({ status: 200 });
  });

  it('the client going away before the origin answers aborts the origin request', async () => {
    // An edge of its own whose timeouts are far past the test's: the origin request can only end
    // because the client left (before, a wall-clock bound told it from the 2 s header timeout).
    const patient = await startEdge([{ id: 1, domain: 'example.test', origin: `http://127.0.0.1:${origin.port}` }],
      { timeouts: { headersMs: 600_000, bodyIdleMs: 600_000 } });
    try {
      let originClosed: () => void = () => {};
      const aborted = new Promise<void>((r) => { originClosed = r; });
      let originReached: () => void = () => {};
      const reached = new Promise<void>((r) => { originReached = r; });
      origin.routes.set('/slow', (_req, res) => { res.on('close', () => originClosed()); originReached(); });
      const socket = net.connect(patient.port, '127.0.0.1');
      socket.write(`GET /slow HTTP/1.1\r\n${H}\r\n`);
      await reached;
      socket.destroy();
      await aborted;
    } finally {
      await patient.close();
    }
  });

  it('the origin failing mid-body cuts the client connection (no complete-looking response)', async () => {
    origin.routes.set('/cut', (req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('partial');
      setTimeout(() => req.socket.destroy(), 30);
    });
    const reply = await raw(edge.port, `GET /cut HTTP/1.1\r\n${H}\r\n`);
    expect(reply).toMatch(/^HTTP\/1\.1 200/);
    expect(reply.endsWith('partial')).toBe(true);
  });
});

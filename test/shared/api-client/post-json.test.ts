import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../shared/api-client/client.js';
import { makeTestPki, type TestPki } from './tls-fixture.js';

// ApiClient.postJson, the ingestion client's transport: a pre-serialised body over node:https with
// the pinned CA, the token, keep-alive, and the client's error codes for failures.

let pki: TestPki;
let server: Server;
let base: string;
const seen: Array<{ body: string; headers: Record<string, unknown>; socket: number }> = [];
const sockets = new WeakMap<object, number>();
let nextSocket = 0;

beforeAll(async () => {
  pki = makeTestPki();
  server = createServer({ cert: pki.serverCert, key: pki.serverKey }, (req, res) => {
    if (!sockets.has(req.socket)) sockets.set(req.socket, ++nextSocket);
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      seen.push({ body, headers: req.headers, socket: sockets.get(req.socket)! });
      if (req.url === '/slow') return; // never answers
      res.writeHead(req.url === '/limited' ? 429 : 200, { 'content-type': 'application/json', 'retry-after': '3', 'x-multi': ['a', 'b'] });
      res.end(JSON.stringify({ message: 'ok', processed: 1, echo: body.length }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));

describe('ApiClient.postJson', () => {
  it('sends the text as is with the token, and reuses the connection', async () => {
    const client = new ApiClient({ server: base, token: 'wfi_token0123456789', ca: pki.caCert });
    const text = '[{"uri":"/é"} , {"n":1}]';
    const first = await client.postJson('/api/vector/waf', text);
    const second = await client.postJson('api/vector/waf', text);
    client.close();
    expect(first.status).toBe(200);
    expect(JSON.parse(first.text)).toEqual({ message: 'ok', processed: 1, echo: text.length });
    expect(first.headers.get('Retry-After')).toBe('3');
    expect(first.headers.get('x-multi')).toBe('a, b');
    expect(first.headers.get('x-none')).toBeNull();
    const [a, b] = seen.slice(-2);
    expect(a.body).toBe(text);
    expect(a.headers).toMatchObject({ authorization: 'Bearer wfi_token0123456789', 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
    expect(b.socket).toBe(a.socket);
    expect(second.status).toBe(200);
  });

  it('answers non-2xx statuses instead of throwing', async () => {
    const client = new ApiClient({ server: base, ca: pki.caCert });
    expect((await client.postJson('/limited', '[]')).status).toBe(429);
    client.close();
  });

  it('fails with tls_error without the pinned CA, api_unreachable when nothing listens or answers', async () => {
    const unpinned = new ApiClient({ server: base });
    await expect(unpinned.postJson('/x', '[]')).rejects.toMatchObject({ code: 'tls_error', status: 0 });
    unpinned.close();
    const closed = new ApiClient({ server: 'https://127.0.0.1:1', ca: pki.caCert });
    await expect(closed.postJson('/x', '[]')).rejects.toMatchObject({ code: 'api_unreachable' });
    const slow = new ApiClient({ server: base, ca: pki.caCert, timeoutMs: 200 });
    await expect(slow.postJson('/slow', '[]')).rejects.toMatchObject({ code: 'api_unreachable', message: expect.stringContaining('within 0.2s') });
    slow.close();
  });
});

import { once } from 'node:events';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseWith } from '../../../daemon/api/envelope.js';
import { createApiServer, type ApiServer } from '../../../daemon/api/server.js';
import { ensureApiTls, type ApiTls } from '../../../daemon/tls/api-tls.js';
import { WafctlError } from '../../../shared/errors.js';
import { dataPaths } from '../../../shared/paths.js';

let dir: string;
let tls: ApiTls;
let ca: string;
let server: ApiServer;
let port: number;
let slowEntered: Promise<void>;
let releaseSlow: () => void;

// The TLS files are only read; every test gets its own listener (its own port), so the one that
// closes it drains nothing of the others'.
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wafctl-api-'));
  tls = await ensureApiTls(dataPaths(dir), {});
  ca = await readFile(tls.caFile!, 'utf8'); // the server cert is not a CA; pin the real CA
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  let entered: () => void;
  slowEntered = new Promise((resolve) => (entered = resolve));
  server = await createApiServer({
    tls,
    logger: pino({ level: 'silent' }),
    register: [(app) => {
      app.post('/t', async (req) => ({ success: true, data: parseWith(z.object({ n: z.number() }).strict(), req.body) }));
      app.get('/boom', async () => { throw new Error('secret detail'); });
      app.get('/gone', async () => { throw new WafctlError('site_deleted'); });
      app.get('/slow', () => new Promise((resolve) => { releaseSlow = () => resolve({ success: true }); entered(); }));
    }],
  });
  port = await server.listen(0, '127.0.0.1');
});
afterEach(async () => {
  await server.close(0); // a second close (after the drain test) is harmless
});

function call(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<{ status: number; json: any; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: '127.0.0.1', port, method, path, ca, servername: 'localhost', headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(text), headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('API listener frame', () => {
  it('HTTPS works and an unknown path is 404 not_found in the envelope', async () => {
    const res = await call('GET', '/api/v1/nothing');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ success: false, error: 'not_found', message: expect.stringContaining('/api/v1/nothing') });
  });

  it('a known path with another method is 405 method_not_allowed with Allow', async () => {
    const res = await call('DELETE', '/t');
    expect(res.status).toBe(405);
    expect(res.json.error).toBe('method_not_allowed');
    expect(res.headers.allow).toBe('POST');
  });

  it('plain HTTP on the same port gets 400 https_required and the connection is closed', async () => {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write('GET /api/v1/connect HTTP/1.1\r\nHost: x\r\n\r\n');
    let text = '';
    socket.on('data', (d) => (text += d));
    await once(socket, 'end');
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toMatch(/Connection: close/i);
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
    expect(body).toEqual({ success: false, error: 'https_required', message: expect.any(String) });
    socket.destroy();
  });

  it('fetch over plain http sees the same 400', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/connect`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('https_required');
  });

  it('validation, bad JSON, an empty JSON body and table errors use the envelope', async () => {
    const json = { 'content-type': 'application/json' };
    expect(await call('POST', '/t', '{"n":1}', json)).toMatchObject({ status: 200, json: { success: true, data: { n: 1 } } });
    const invalid = await call('POST', '/t', '{"n":"x"}', json);
    expect(invalid).toMatchObject({ status: 422, json: { error: 'validation_error' } });
    expect(invalid.json.message).toMatch(/^n: /);
    expect(await call('POST', '/t', '{"n":', json)).toMatchObject({ status: 400, json: { error: 'bad_request' } });
    expect(await call('POST', '/t', '', json)).toMatchObject({ status: 422, json: { error: 'validation_error' } });
    expect(await call('POST', '/t', 'n=1', { 'content-type': 'text/plain' })).toMatchObject({ status: 415, json: { error: 'unsupported_media_type' } });
    expect(await call('GET', '/gone')).toMatchObject({ status: 403, json: { error: 'site_deleted' } });
  });

  it('a 500 says internal_error and never the detail', async () => {
    const res = await call('GET', '/boom');
    expect(res.status).toBe(500);
    expect(res.json.error).toBe('internal_error');
    expect(JSON.stringify(res.json)).not.toContain('secret detail');
  });

  it('close drains an in-flight request before finishing', async () => {
    const pending = call('GET', '/slow');
    await slowEntered; // the request is in the handler
    const closing = server.close(5_000); // stops listening at once, then drains
    // No new connections are accepted while draining.
    const refused = await call('GET', '/api/v1/x').then(() => 'answered', (e: NodeJS.ErrnoException) => e.code);
    expect(refused).toBe('ECONNREFUSED');
    releaseSlow();
    expect(await pending).toMatchObject({ status: 200, json: { success: true } });
    await closing;
  });
});

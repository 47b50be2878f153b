// The client against a real HTTPS server on loopback with a throwaway CA.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, ApiError } from '../../../shared/api-client/index.js';
import { makeTestPki, type TestPki } from './tls-fixture.js';

let pki: TestPki;
let server: Server;
let base: string;
const seen: Array<{ method?: string; url?: string; headers: Record<string, unknown>; body: string }> = [];

beforeAll(async () => {
  pki = makeTestPki();
  server = createServer({ cert: pki.serverCert, key: pki.serverKey }, (req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-ratelimit-limit', '120');
      res.setHeader('x-ratelimit-remaining', '119');
      res.setHeader('x-ratelimit-reset', '1790000000');
      if (req.url?.startsWith('/api/v1/connect')) {
        res.end(JSON.stringify({ success: true, data: { connected: true, domain: 'example.com' } }));
      } else if (req.url === '/api/v1/limited') {
        res.statusCode = 429;
        res.setHeader('retry-after', '12');
        res.end(JSON.stringify({ success: false, error: 'rate_limit_exceeded', message: 'too many requests' }));
      } else {
        res.statusCode = 401;
        res.end(JSON.stringify({ success: false, error: 'invalid_api_key', message: 'key replaced' }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('ApiClient over HTTPS', () => {
  it('trusts the pinned CA, sends the key and JSON headers, and unwraps data', async () => {
    const client = new ApiClient({ server: base, key: 'K'.repeat(64), ca: pki.caCert });
    const result = await client.request('GET', '/connect', { query: { period: '24h', page: undefined } });
    client.close();
    expect(result.data).toEqual({ connected: true, domain: 'example.com' });
    expect(result.rateLimit).toEqual({ limit: 120, remaining: 119, reset: 1790000000 });
    const request = seen.at(-1)!;
    expect(request.url).toBe('/api/v1/connect?period=24h');
    expect(request.headers['x-service-key']).toBe('K'.repeat(64));
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.accept).toBe('application/json');
  });

  it('sends JSON bodies and bearer tokens', async () => {
    const client = new ApiClient({ server: base, token: 'tok', ca: pki.caCert });
    await client.raw('POST', '/api/vector/waf', { body: [{ a: 1 }] });
    client.close();
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/api/vector/waf', body: '[{"a":1}]' });
    expect(seen.at(-1)!.headers.authorization).toBe('Bearer tok');
  });

  it('refuses a server whose certificate is not from the pinned CA (tls_error)', async () => {
    const client = new ApiClient({ server: base, key: 'k' }); // system CAs only
    const error = await apiError(client.get('/connect'));
    client.close();
    expect(error.code).toBe('tls_error');
  });

  it('reports API errors with code, status and retry-after', async () => {
    const client = new ApiClient({ server: base, key: 'k', ca: pki.caCert });
    const auth = await apiError(client.get('/ip-rules'));
    expect([auth.code, auth.status]).toEqual(['invalid_api_key', 401]);
    const limited = await apiError(client.get('/limited'));
    client.close();
    expect([limited.code, limited.status, limited.retryAfter]).toEqual(['rate_limit_exceeded', 429, 12]);
  });

  it('says api_unreachable when nothing listens', async () => {
    const client = new ApiClient({ server: 'https://127.0.0.1:1', key: 'k', ca: pki.caCert });
    const error = await apiError(client.get('/connect'));
    expect(error.code).toBe('api_unreachable');
  });

  it('refuses plain http:// servers before sending the key anywhere', () => {
    expect(() => new ApiClient({ server: 'http://127.0.0.1:9443', key: 'k' })).toThrow(/https/);
  });

  it('reads the CA from a file and names a missing one', async () => {
    const error = await apiError(ApiClient.withCaFile({ server: base, caFile: '/nonexistent/ca.crt' }));
    expect(error.code).toBe('invalid_ca');
  });
});

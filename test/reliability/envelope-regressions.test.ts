// Bugs the fuzzers found in the API plumbing, each pinned by the request that showed it (fixed in
// daemon/api/client-error.ts, envelope.ts, v1/plugin.ts and the admin server's options).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFuzzDaemon, type FuzzDaemon } from './support/in-process-daemon.js';
import { exchange } from './support/raw-http.js';

let d: FuzzDaemon;
beforeAll(async () => {
  d = await startFuzzDaemon();
}, 60_000);
afterAll(() => d?.stop());

const envelope = (message: RegExp) => ({ success: false, error: 'bad_request', message: expect.stringMatching(message) });

describe('answers the fuzzers showed to be missing or off-contract', () => {
  it('headers over 16 KiB followed by a body: 400 in the envelope over TLS (was: connection closed, no answer)', async () => {
    const res = await exchange(d.api, {
      method: 'POST', target: '/api/v1/ip-rules/whitelist',
      headers: [['X-Service-Key', d.siteKey], ['Accept', 'x'.repeat(20_000)], ['Content-Type', 'application/json']],
      body: '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000),
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ ...envelope(/16 KiB/), errors: [expect.any(String)] });
  });

  it('a control character in a header: 400 in the envelope with ingestion `errors` (was: fastify\'s own body)', async () => {
    const res = await exchange(d.api, { method: 'POST', target: '/api/vector/waf', headers: [['Authorization', `Bearer ${d.token}`], ['X-Bad', 'a\u0001b']], body: '[]' });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ ...envelope(/HTTP/), errors: [expect.any(String)] });
  });

  it('a path with a broken %-escape: 400 in the envelope (was: {error, code: FST_ERR_BAD_URL, statusCode})', async () => {
    const res = await exchange(d.api, { method: 'GET', target: '/api/v1/%', headers: [['X-Service-Key', d.siteKey]] });
    expect(res.status).toBe(400);
    expect(res.json).toEqual(envelope(/valid URL/));
  });

  it('an unknown path under /api/v1 carries the X-RateLimit-* headers like every other answer', async () => {
    const res = await exchange(d.api, { method: 'GET', target: '/api/v1/nothing-here', headers: [['X-Service-Key', d.siteKey]] });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ success: false, error: 'not_found' });
    expect(res.headers['x-ratelimit-limit']).toBe('300');
  });

  it('the admin socket answers for a 200-character domain parameter (was: 414 in fastify\'s shape past 100)', async () => {
    const domain = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.example.test`;
    const res = await exchange(d.admin, { method: 'GET', target: `/admin/sites/${domain}`, headers: [] });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ success: false, error: 'not_found' });
  });
});

import Fastify, { type FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ingestPlugin, type IngestDependencies, type StoredAccessInput, type StoredWafInput } from '../../../daemon/ingest/plugin.js';
import { MemoryCounterStore } from '../../../daemon/store/counter-store.js';

// The plugin on a real socket with in-memory dependencies; the daemon's end-to-end test covers
// the same routes over HTTPS with the real token store and event store.

const TOKEN = 'wfi_testtoken0123456789';
const OTHER_ACCOUNT_TOKEN = 'wfi_othertoken0123456789';
const stored = { waf: [] as StoredWafInput[], access: [] as StoredAccessInput[] };
let failStorage = false;
let clock = 1_763_700_000_000;
let counter = new MemoryCounterStore();

const deps: IngestDependencies = {
  authenticate: (token) =>
    token === TOKEN ? { accountId: 'a1', tokenId: 't1' } : token === OTHER_ACCOUNT_TOKEN ? { accountId: 'a2', tokenId: 't2' } : null,
  siteOf: (accountId, host) =>
    accountId === 'a1' && host === 'example.test' ? { siteId: 7 } : { problem: `${host} is not a site of this account` },
  storeWaf: async (entries) => {
    if (failStorage) throw new Error('disk full');
    stored.waf.push(...entries);
  },
  storeAccess: async (entries) => {
    if (failStorage) throw new Error('disk full');
    stored.access.push(...entries);
  },
  get counter() {
    return counter;
  },
  now: () => clock,
};

const waf = {
  timestamp_ms: 1_763_700_000_123,
  host: 'example.test',
  client_ip: '203.0.113.9',
  uri: '/?q=1',
  method: 'GET',
  waf_file: '/usr/share/modsecurity-crs/rules/REQUEST-942-APPLICATION-ATTACK-SQLI.conf',
  rule_id: '942100',
  severity: 'CRITICAL',
  msg: 'SQL Injection',
};
const access = { timestamp: 1_763_700_000, host: 'example.test', client_ip: '203.0.113.9', uri: '/', method: 'GET', status: 200, bytes_sent: 10 };

let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  app = Fastify();
  await app.register(ingestPlugin, { deps });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => app.close());
beforeEach(() => {
  stored.waf.length = 0;
  stored.access.length = 0;
  failStorage = false;
  counter = new MemoryCounterStore();
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await request(base + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as Record<string, unknown> };
}

describe('successful ingestion', () => {
  it('takes one entry or an array, derives the group and drops unknown fields', async () => {
    const single = await post('/api/vector/waf', { ...waf, extra: 1 });
    expect(single).toMatchObject({ status: 200, body: { processed: 1 } });
    const many = await post('/api/vector/waf', [waf, { ...waf, rule_id: '200010', waf_file: '/etc/wafctl/cms-wordpress.conf' }]);
    expect(many.body).toMatchObject({ processed: 2 });
    expect(stored.waf.map((e) => [e.site_id, e.group])).toEqual([[7, 'crs'], [7, 'crs'], [7, 'cms']]);
    expect(stored.waf[0]).not.toHaveProperty('extra');
  });

  it('answers an empty array with 200 and processed 0', async () => {
    expect(await post('/api/vector/access', [])).toMatchObject({ status: 200, body: { processed: 0 } });
  });

  it('reports partial success with zero-based indexes and stores only the good entries', async () => {
    const res = await post('/api/vector/access', [access, { ...access, timestamp: '1763700000' }, access, { ...access, host: 'other.test' }]);
    expect(res.status).toBe(207);
    expect(res.body.processed).toBe(2);
    expect((res.body.errors as Array<{ index: number; error: string }>).map((e) => e.index)).toEqual([1, 3]);
    expect(String((res.body.errors as Array<{ error: string }>)[0].error)).toContain('timestamp:');
    expect(stored.access).toHaveLength(2);
  });

  it('sends rate-limit headers on success', async () => {
    const res = await post('/api/vector/access', access);
    expect(res.headers['x-ratelimit-limit']).toBe('100');
    expect(res.headers['x-ratelimit-remaining']).toBe('99');
    expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(clock / 1000);
  });
});

describe('refused requests change nothing', () => {
  it.each([
    ['an empty bearer', { authorization: 'Bearer ' }],
    ['a malformed header', { authorization: 'Token abc' }],
    ['an unknown token', { authorization: 'Bearer wfi_unknown000000000' }],
  ])('401 for %s', async (_name, headers) => {
    const res = await post('/api/vector/waf', waf, headers);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Unauthorized', errors: [expect.any(String)] });
  });

  it('401 without a token even when the header is absent entirely', async () => {
    const res = await request(base + '/api/vector/waf', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.statusCode).toBe(401);
    await res.body.dump();
  });

  it('415 for a body that is not declared JSON', async () => {
    const res = await post('/api/vector/waf', JSON.stringify(waf), { 'content-type': 'text/plain' });
    expect(res).toMatchObject({ status: 415, body: { errors: [expect.stringContaining('application/json')] } });
  });

  it.each([
    ['malformed JSON', '{"timestamp_ms": '],
    ['a JSON string', '"hello"'],
    ['a JSON number', '42'],
    ['prototype pollution', '{"__proto__": {"polluted": true}}'],
  ])('400 for %s', async (_name, body) => {
    const res = await post('/api/vector/waf', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: expect.any(String), errors: [expect.any(String)] });
    expect(stored.waf).toHaveLength(0);
  });

  it('400 with `[index] field: problem` lines when no entry is valid', async () => {
    const res = await post('/api/vector/waf', [{ ...waf, severity: 'HIGH' }, 'text']);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.stringMatching(/^\[0\] severity: /), '[1] entry must be a JSON object']);
  });

  it('413 beyond 1000 entries', async () => {
    const res = await post('/api/vector/access', Array.from({ length: 1001 }, () => access));
    expect(res.status).toBe(413);
    expect(stored.access).toHaveLength(0);
  });

  it('413 beyond 10 MiB', async () => {
    const res = await post('/api/vector/access', [{ ...access, user_agent: 'x'.repeat(11 * 1024 * 1024) }]);
    expect(res.status).toBe(413);
  });

  it('500 when storage fails, with nothing stored', async () => {
    failStorage = true;
    const res = await post('/api/vector/waf', [waf, waf]);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: 'Internal server error', errors: [expect.any(String)] });
    expect(stored.waf).toHaveLength(0);
  });

  it('429 with retry_after after 100 requests in a minute, per token and endpoint', async () => {
    clock = 1_763_700_000_000 + 15_000;
    for (let i = 0; i < 100; i++) expect((await post('/api/vector/access', [])).status).toBe(200);
    const limited = await post('/api/vector/access', []);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: 'Rate limit exceeded', retry_after: 45 });
    expect(limited.headers['retry-after']).toBe('45');
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect((await post('/api/vector/waf', [])).status).toBe(200);
    clock += 45_000;
    expect((await post('/api/vector/access', [])).status).toBe(200);
  });
});

import Fastify, { type FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../../daemon/api/v1/auth.js';
import type { ManagementDependencies } from '../../../../daemon/api/v1/dependencies.js';
import { managementApiPlugin } from '../../../../daemon/api/v1/plugin.js';
import { installEnvelope } from '../../../../daemon/api/envelope.js';
import { MemoryCounterStore } from '../../../../daemon/store/counter-store.js';
import { defaultProtection, type StoredSite } from '../../../../shared/schemas/site.js';
import { SiteInfoSchema, successEnvelope, WafLogsSchema, ErrorEnvelopeSchema } from '../../../../shared/schemas/management-api.js';

// The plugin on a real socket with in-memory dependencies. The daemon's end-to-end contract tests run
// the same routes over HTTPS against the real config and event stores.

const KEY = 'A'.repeat(32) + 'b'.repeat(31) + '7';
const INACTIVE_KEY = 'C'.repeat(64);
const DELETED_KEY = 'D'.repeat(64);
let sites: StoredSite[] = [];
let clock = Date.parse('2026-11-22T10:00:15Z');
let counter = new MemoryCounterStore();

function site(id: number, key: string, status: StoredSite['status']): StoredSite {
  return {
    id, account_id: 1, domain: `site${id}.test`, aliases: [], origin: 'http://127.0.0.1:9', plan: 'free', status,
    key_hash: sha256Hex(key), key_created_at: null, created_at: '2026-11-01T00:00:00.000Z', updated_at: '2026-11-01T00:00:00.000Z',
    ip_rules: { whitelist: [], blacklist: [] }, geo_rules: null, protection: defaultProtection(),
  };
}

const deps: ManagementDependencies = {
  findSiteByKeyHash: (hash) => sites.find((s) => s.key_hash === hash),
  updateSite: async (id, change) => {
    const current = sites.find((s) => s.id === id)!;
    const draft = structuredClone(current);
    const result = change(draft);
    sites = sites.map((s) => (s.id === id ? draft : s));
    return result;
  },
  wafLogs: async (_id, query) => ({ logs: [], pagination: { page: query.page, per_page: query.per_page, total: 0, total_pages: 0 } }),
  wafRequest: async () => ({ events: [] }),
  analytics: async (_id, period) => ({ period, total_requests: 0, unique_visitors: 0, requests_blocked: 0, hourly_data: [] }),
  topList: async (_id, _period, kind, limit) => ({ kind, limit, total: 0, distinct: 0, exact: true, items: [] }),
  checkVulnerabilities: async () => ({ checked_at: new Date(clock).toISOString() }),
  get counter() {
    return counter;
  },
  now: () => clock,
};

let app: FastifyInstance;
let base: string;
beforeAll(async () => {
  app = Fastify();
  installEnvelope(app);
  await app.register(managementApiPlugin, { deps, prefix: '/api/v1' });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => app.close());
beforeEach(() => {
  sites = [site(1, KEY, 'active'), site(2, INACTIVE_KEY, 'inactive'), site(3, DELETED_KEY, 'deleted')];
  counter = new MemoryCounterStore();
});

async function call(method: string, path: string, opts: { key?: string | null; body?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', ...opts.headers };
  if (opts.key !== null) headers['x-service-key'] = opts.key ?? KEY;
  const res = await request(`${base}/api/v1${path}`, { method: method as 'GET', headers, body: opts.body });
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as Record<string, any> };
}

describe('authentication (spec 5, 7)', () => {
  it.each([
    ['no key', null, 401, 'missing_api_key'],
    ['a short key', 'abc', 401, 'invalid_api_key_format'],
    ['a key with a dash', 'A'.repeat(63) + '-', 401, 'invalid_api_key_format'],
    ['an unknown key', 'Z'.repeat(64), 401, 'invalid_api_key'],
    ['an inactive site', INACTIVE_KEY, 403, 'site_inactive'],
    ['a deleted site', DELETED_KEY, 403, 'site_deleted'],
  ])('refuses %s', async (_name, key, status, code) => {
    const res = await call('GET', '/connect', { key });
    expect(res.status).toBe(status);
    expect(ErrorEnvelopeSchema.parse(res.body).error).toBe(code);
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
  });
});

describe('routes', () => {
  it('GET /connect lists every feature key', async () => {
    const res = await call('GET', '/connect');
    const parsed = successEnvelope(SiteInfoSchema).parse(res.body);
    expect(parsed.data).toMatchObject({ site_id: 1, domain: 'site1.test', plan_tier: 'free', waf_enabled: true });
    expect(Object.keys(parsed.data.features)).toHaveLength(8);
  });

  it('accepts an empty body with Content-Type: application/json on GET and refuses it on DELETE', async () => {
    expect((await call('GET', '/ip-rules', { body: '' })).status).toBe(200);
    const res = await call('DELETE', '/ip-rules', { body: '' });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('validation_error');
  });

  it('validates query parameters with 422 naming the field', async () => {
    const res = await call('GET', '/waf-logs?per_page=500');
    expect(res).toMatchObject({ status: 422, body: { success: false, error: 'validation_error' } });
    expect(res.body.message).toContain('per_page');
    expect((await call('GET', '/analytics?period=1y')).body.message).toContain('period');
    const include = await call('GET', '/waf-logs?include=tags');
    expect(include).toMatchObject({ status: 422, body: { success: false, error: 'validation_error' } });
    expect(include.body.message).toMatch(/include.*must be "action"/);
    const ok = await call('GET', '/waf-logs?page=2&per_page=10');
    expect(successEnvelope(WafLogsSchema).parse(ok.body).data.pagination).toMatchObject({ page: 2, per_page: 10 });
  });

  it('adds, lists, refuses duplicates and removes IP rules', async () => {
    const added = await call('POST', '/ip-rules/blacklist', { body: JSON.stringify({ ip: '203.0.113.0/24', description: 'bad net' }) });
    expect(added).toMatchObject({ status: 201, body: { success: true, message: expect.any(String) } });
    expect((await call('POST', '/ip-rules/whitelist', { body: JSON.stringify({ ip: '203.0.113.0/24' }) })).status).toBe(409);
    expect((await call('GET', '/ip-rules')).body.data.blacklist).toEqual([
      { ip: '203.0.113.0/24', description: 'bad net', added_at: expect.any(String) },
    ]);
    expect((await call('DELETE', '/ip-rules', { body: JSON.stringify({ ip: '203.0.113.0/24', type: 'blacklist' }) })).status).toBe(200);
    const missing = await call('DELETE', '/ip-rules', { body: JSON.stringify({ ip: '203.0.113.0/24', type: 'blacklist' }) });
    expect(missing).toMatchObject({ status: 404, body: { error: 'not_found' } });
  });

  it.each([
    ['not JSON', '{ip:', 400, 'bad_request'],
    ['a JSON array', '[]', 422, 'validation_error'],
    ['a bad IP', '{"ip":"300.1.1.1"}', 422, 'validation_error'],
    ['a long description', JSON.stringify({ ip: '1.2.3.4', description: 'x'.repeat(101) }), 422, 'validation_error'],
    ['a poisoned prototype', '{"ip":"1.2.3.4","__proto__":{"x":1}}', 400, 'bad_request'],
  ])('refuses %s without changing anything', async (_name, body, status, code) => {
    const res = await call('POST', '/ip-rules/whitelist', { body });
    expect(res).toMatchObject({ status, body: { success: false, error: code } });
    expect(sites[0].ip_rules.whitelist).toHaveLength(0);
  });

  it('answers no_settings until geo rules are set, then returns them', async () => {
    expect((await call('GET', '/geo-rules')).body).toMatchObject({ error: 'no_settings' });
    const put = await call('PUT', '/geo-rules', { body: JSON.stringify({ enabled: true, mode: 'blacklist', countries: ['ru', 'CN'] }) });
    expect(put).toMatchObject({ status: 200, body: { success: true, data: { enabled: true, mode: 'blacklist', countries: ['RU', 'CN'] } } });
    expect((await call('GET', '/geo-rules')).body.data.countries).toEqual(['RU', 'CN']);
    const bad = await call('PUT', '/geo-rules', { body: JSON.stringify({ enabled: true }) });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(/mode.*countries/);
  });

  it('answers unknown paths with 404 and wrong methods with 405, in the envelope', async () => {
    expect(await call('GET', '/nope')).toMatchObject({ status: 404, body: { success: false, error: 'not_found' } });
    expect(await call('PATCH', '/ip-rules')).toMatchObject({ status: 405, body: { success: false, error: 'method_not_allowed' } });
  });

  it('returns vulnerability results at the top level', async () => {
    const res = await call('POST', '/wp/vulnerabilities/check', { body: '{"cms_version":"6.4.2"}' });
    expect(res.body).toEqual({ success: true, checked_at: expect.any(String) });
  });
});

describe('plan features', () => {
  it('answers feature_unavailable when the plan lacks the feature of the route', async () => {
    const withoutGeo = Fastify();
    installEnvelope(withoutGeo);
    await withoutGeo.register(managementApiPlugin, {
      deps: { ...deps, counter: new MemoryCounterStore(), hasFeature: (_plan, feature) => feature !== 'geo_blocking' },
      prefix: '/api/v1',
    });
    const res = await withoutGeo.inject({ method: 'GET', url: '/api/v1/geo-rules', headers: { 'x-service-key': KEY } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, error: 'feature_unavailable', message: expect.stringContaining('geo_blocking') });
    expect((await withoutGeo.inject({ method: 'GET', url: '/api/v1/ip-rules', headers: { 'x-service-key': KEY } })).statusCode).toBe(200);
    await withoutGeo.close();
  });
});

describe('rate limits (spec 8)', () => {
  it('allows 30 writes per minute per key, then 429 with Retry-After', async () => {
    for (let i = 0; i < 30; i++) await call('DELETE', '/ip-rules', { body: JSON.stringify({ ip: '1.1.1.1', type: 'whitelist' }) });
    const res = await call('POST', '/ip-rules/whitelist', { body: JSON.stringify({ ip: '1.1.1.1' }) });
    expect(res).toMatchObject({ status: 429, body: { error: 'rate_limit_exceeded' } });
    expect(res.headers['retry-after']).toBe('45');
    expect(res.headers['x-ratelimit-limit']).toBe('30');
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
    expect(sites[0].ip_rules.whitelist).toHaveLength(0);
    expect((await call('GET', '/connect')).headers['x-ratelimit-limit']).toBe('120');
  });

  it('allows 120 reads per key and 300 requests per client IP', async () => {
    for (let i = 0; i < 120; i++) await call('GET', '/connect');
    expect((await call('GET', '/connect')).status).toBe(429);
    for (let i = 0; i < 179; i++) await call('GET', '/connect', { key: null });
    const res = await call('GET', '/connect', { key: null });
    expect(res).toMatchObject({ status: 429, body: { error: 'rate_limit_exceeded' } });
    expect(res.headers['x-ratelimit-limit']).toBe('300');
    clock += 60_000;
    expect((await call('GET', '/connect')).status).toBe(200);
  });
});

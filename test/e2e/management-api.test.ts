// End to end: the real daemon, the management API and the ingestion API over real
// HTTPS (the daemon's own CA pinned), driven by the wafctl binary and by raw HTTPS requests whose
// answers are checked with the shared zod schemas.
import { readFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnalyticsSchema,
  ErrorEnvelopeSchema,
  GeoRulesSchema,
  IpRulesSchema,
  SiteInfoSchema,
  successEnvelope,
  WafLogsSchema,
} from '../../shared/schemas/management-api.js';
import { newSandbox, quickStartFlags, stopAll, type E2eDaemon } from './daemon-harness.js';

interface Status {
  api_url: string;
  ca_file: string;
  ports: { edge: number };
}

let d: E2eDaemon;
let status: Status;
let agent: Agent;
let key: string;

async function json<T>(...args: string[]): Promise<T> {
  const result = await d.wafctl('--json', ...args);
  if (result.code !== 0) throw new Error(`wafctl ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

function https(method: string, path: string, opts: { headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: any }>((resolve, reject) => {
    // Node does not chunk DELETE bodies: frame every body with its length.
    const headers = { ...opts.headers, ...(opts.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(opts.body)) }) };
    const req = httpsRequest(new URL(path, status.api_url), { method, agent, headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** `withKey`: null sends no key at all; omitted sends the current key. */
const api = (method: string, path: string, body?: unknown, withKey: string | null = key) =>
  https(method, `/api/v1${path}`, {
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(withKey !== null ? { 'x-service-key': withKey } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

beforeAll(async () => {
  d = await newSandbox();
  const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)));
  expect(start.code, start.stderr).toBe(0);
  status = await json<Status>('daemon', 'status');
  agent = new Agent({ ca: await readFile(status.ca_file, 'utf8'), keepAlive: false });
  key = (await json<{ api_key: string }>('site', 'add', 'shop.example.test', '--origin', 'http://127.0.0.1:9')).api_key;
}, 180_000);

afterAll(() => stopAll(), 60_000);

describe('wafctl against the management API', () => {
  it('connects with the key that site add saved as the login profile', async () => {
    const info = await json<Record<string, unknown>>('connect');
    expect(SiteInfoSchema.parse(info)).toMatchObject({ domain: 'shop.example.test', plan_tier: 'free', waf_enabled: true });
  });

  it('adds, lists, refuses and removes IP rules', async () => {
    expect((await d.wafctl('ip-rules', 'add', '2001:DB8:0::/48', '--blacklist', '--description', 'scanner net')).code).toBe(0);
    const lists = IpRulesSchema.parse(await json('ip-rules', 'list'));
    expect(lists.blacklist.map((r) => [r.ip, r.description])).toEqual([['2001:db8::/48', 'scanner net']]);

    const again = await d.wafctl('ip-rules', 'add', '2001:db8::/48', '--whitelist');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error: duplicate: .*blacklist/m);
    const neither = await d.wafctl('ip-rules', 'add', '1.2.3.4');
    expect(neither.code).toBe(2);
    const bad = await d.wafctl('ip-rules', 'add', '1.2.3.999', '--whitelist');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error: validation_error: ip: /m);

    expect((await d.wafctl('ip-rules', 'remove', '2001:db8:0:0::/48', '--blacklist')).code).toBe(0);
    const missing = await d.wafctl('ip-rules', 'remove', '2001:db8::/48', '--blacklist');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: not_found: /m);
    expect(await json('ip-rules', 'list')).toEqual({ whitelist: [], blacklist: [] });
  });

  it('enforces the free plan limit of 5 entries per list', async () => {
    for (let i = 1; i <= 5; i++) expect((await api('POST', '/ip-rules/whitelist', { ip: `198.51.100.${i}` })).status).toBe(201);
    const over = await api('POST', '/ip-rules/whitelist', { ip: '198.51.100.6' });
    expect(over.status).toBe(403);
    expect(ErrorEnvelopeSchema.parse(over.body)).toMatchObject({ error: 'limit_exceeded' });
    for (let i = 1; i <= 5; i++) expect((await api('DELETE', '/ip-rules', { ip: `198.51.100.${i}`, type: 'whitelist' })).status).toBe(200);
  });

  it('sets, shows and disables geo rules', async () => {
    // A new site starts with geo blocking off and no countries, not 404 no_settings.
    expect(await json('geo-rules', 'show')).toEqual({ enabled: false, mode: 'blacklist', countries: [] });
    expect(GeoRulesSchema.parse(await json('geo-rules', 'set', '--mode', 'blacklist', '--countries', 'ru,KP,ru'))).toEqual({
      enabled: true,
      mode: 'blacklist',
      countries: ['RU', 'KP'],
    });
    const unknown = await d.wafctl('geo-rules', 'set', '--mode', 'blacklist', '--countries', 'XX');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/validation_error/);
    expect(await json('geo-rules', 'disable')).toEqual({ enabled: false, mode: 'blacklist', countries: ['RU', 'KP'] });
    expect(await json('geo-rules', 'show')).toEqual({ enabled: false, mode: 'blacklist', countries: ['RU', 'KP'] });
  });

  it('reads logs and analytics in the spec shapes', async () => {
    const logs = WafLogsSchema.parse(await json('logs', '--per-page', '10'));
    expect(logs.pagination).toMatchObject({ page: 1, per_page: 10 });
    const week = AnalyticsSchema.parse(await json('analytics', '--period', '7d'));
    expect(week.hourly_data).toHaveLength(168);
    const tooSmall = await d.wafctl('logs', '--per-page', '5');
    expect(tooSmall.code).toBe(1);
    expect(tooSmall.stderr).toMatch(/^error: validation_error: per_page/m);
  });
});

describe('the API over HTTPS', () => {
  it('answers every authentication failure in the envelope with rate-limit headers', async () => {
    const cases: Array<[string | null, number, string]> = [
      [null, 401, 'missing_api_key'],
      ['short', 401, 'invalid_api_key_format'],
      ['x'.repeat(64), 401, 'invalid_api_key'],
    ];
    for (const [badKey, code, error] of cases) {
      const res = await api('GET', '/connect', undefined, badKey);
      expect(res.status).toBe(code);
      expect(ErrorEnvelopeSchema.parse(res.body).error).toBe(error);
      expect(res.headers['x-ratelimit-limit']).toBeDefined();
    }
  });

  it('refuses plain HTTP on the API port with https_required', async () => {
    const port = new URL(status.api_url).port;
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/api/v1/connect' }, (r) => {
        let body = '';
        r.on('data', (c) => (body += c));
        r.on('end', () => resolve({ status: r.statusCode!, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ success: false, error: 'https_required' });
  });

  it('stops taking a key the moment it is regenerated, and refuses a disabled site', async () => {
    const old = key;
    key = (await json<{ api_key: string }>('site', 'key', 'shop.example.test', '--regenerate')).api_key;
    expect((await api('GET', '/connect', undefined, old)).body).toMatchObject({ error: 'invalid_api_key' });
    expect(successEnvelope(SiteInfoSchema).parse((await api('GET', '/connect')).body).data.domain).toBe('shop.example.test');
    expect((await d.wafctl('site', 'disable', 'shop.example.test')).code).toBe(0);
    const inactive = await d.wafctl('connect');
    expect(inactive.code).toBe(4);
    expect(inactive.stderr).toMatch(/^error: site_inactive: /m);
    expect((await d.wafctl('site', 'enable', 'shop.example.test')).code).toBe(0);
  });

  it('refuses the key of a deleted site with site_deleted', async () => {
    const doomed = (await json<{ api_key: string }>('site', 'add', 'gone.example.test', '--origin', 'http://127.0.0.1:9', '--no-login')).api_key;
    expect((await api('GET', '/connect', undefined, doomed)).status).toBe(200);
    expect((await d.wafctl('site', 'delete', 'gone.example.test')).code).toBe(0);
    const res = await api('GET', '/connect', undefined, doomed);
    expect(res.status).toBe(403);
    expect(ErrorEnvelopeSchema.parse(res.body).error).toBe('site_deleted');
  });
});

describe('ingestion into the same stores', () => {
  it('lands WAF events and access entries that /waf-logs and /analytics then show', async () => {
    const { token } = await json<{ token: string }>('token', 'create', 'e2e-shipper');
    const now = Date.now();
    const waf = [0, 1, 2].map((i) => ({
      timestamp_ms: now - i * 1000,
      host: 'shop.example.test',
      client_ip: `203.0.113.${10 + i}`,
      uri: `/?id=${i}%27%20or%201=1`,
      method: 'GET',
      waf_file: '/usr/share/modsecurity-crs/rules/REQUEST-942-APPLICATION-ATTACK-SQLI.conf',
      rule_id: '942100',
      severity: 'CRITICAL',
      msg: 'SQL Injection Attack Detected via libinjection',
    }));
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const sent = await https('POST', '/api/vector/waf', { headers, body: JSON.stringify([...waf, { ...waf[0], host: 'elsewhere.test' }]) });
    expect(sent.status).toBe(207);
    expect(sent.body).toMatchObject({ processed: 3, errors: [{ index: 3 }] });

    const access = [200, 403, 200].map((code, i) => ({
      timestamp: Math.floor(now / 1000) - i,
      host: 'shop.example.test',
      client_ip: `203.0.113.${20 + i}`,
      uri: '/',
      method: 'GET',
      status: code,
      bytes_sent: 100,
    }));
    expect((await https('POST', '/api/vector/access', { headers, body: JSON.stringify(access) })).body).toEqual({
      message: expect.any(String),
      processed: 3,
    });

    const logs = WafLogsSchema.parse(await json('logs', '--search', '203.0.113.0/24'));
    // Newest first means most recently received (the store's id order), as the anchor's ORDER BY id DESC.
    expect(logs.logs.map((l) => l.client_ip)).toEqual(['203.0.113.12', '203.0.113.11', '203.0.113.10']);
    expect(logs.logs[0]).toMatchObject({ waf_rule_id: '942100', group: 'crs', host: 'shop.example.test' });
    const day = AnalyticsSchema.parse(await json('analytics'));
    expect(day).toMatchObject({ total_requests: 3, unique_visitors: 3, requests_blocked: 1 });

    const unauthorised = await https('POST', '/api/vector/waf', { headers: { 'content-type': 'application/json' }, body: '[]' });
    expect(unauthorised).toMatchObject({ status: 401, body: { message: expect.any(String), errors: [expect.any(String)] } });
  });
});

describe('changes through the API reach the edge', () => {
  let origin: Server;
  let originPort: number;

  beforeAll(async () => {
    origin = createServer((_req, res) => res.end('origin ok'));
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    originPort = (origin.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => origin.close(() => resolve())));

  function throughEdge(): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: status.ports.edge, path: '/', headers: { host: 'edge.example.test' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('blocks a client once its blacklisting reaches the edge, and lets it in again after removal', async () => {
    // The edge takes config changes from its next snapshot (a second at most on an idle box); the
    // test waits for the change to show, bounded by tries, not by a time a busy box could miss.
    const until = async (status: number) => {
      for (let tries = 0; tries < 600; tries++) {
        if ((await throughEdge()) === status) return true;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return false;
    };
    const edgeKey = (await json<{ api_key: string }>('site', 'add', 'edge.example.test', '--origin', `http://127.0.0.1:${originPort}`, '--no-login')).api_key;
    expect(await until(200)).toBe(true);
    expect((await api('POST', '/ip-rules/blacklist', { ip: '127.0.0.1', description: 'e2e' }, edgeKey)).status).toBe(201);
    expect(await until(403), 'blocked once the blacklisting is applied').toBe(true);
    expect((await api('DELETE', '/ip-rules', { ip: '127.0.0.1', type: 'blacklist' }, edgeKey)).status).toBe(200);
    expect(await until(200), 'let in again once the removal is applied').toBe(true);
  });
});

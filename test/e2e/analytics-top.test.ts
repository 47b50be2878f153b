// Top lists end to end: a real daemon, entries landed through the ingestion API over HTTPS, then
// GET /api/v1/analytics?top=KIND over HTTPS and `wafctl analytics --top KIND` as a real process.
// Every test only reads what beforeAll landed, so their order does not matter.
import { readFile } from 'node:fs/promises';
import { Agent, request as httpsRequest } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalyticsSchema, AnalyticsWithTopSchema, ErrorEnvelopeSchema } from '../../shared/schemas/management-api.js';
import type { TopItem } from '../../shared/schemas/top-lists.js';
import { newSandbox, quickStartFlags, stopAll, type E2eDaemon } from './daemon-harness.js';

const HOST = 'top.example.test';
let d: E2eDaemon;
let apiUrl: string;
let agent: Agent;
let key: string;

async function json<T>(...args: string[]): Promise<T> {
  const r = await d.wafctl('--json', ...args);
  if (r.code !== 0) throw new Error(`wafctl ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

function https(method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const sized = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const req = httpsRequest(new URL(path, apiUrl), { method, agent, headers: sized }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const analytics = (query: string) => https('GET', `/api/v1/analytics${query}`, { 'x-service-key': key, accept: 'application/json' });

beforeAll(async () => {
  d = await newSandbox();
  const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)));
  expect(start.code, start.stderr).toBe(0);
  const status = await json<{ api_url: string; ca_file: string }>('daemon', 'status');
  apiUrl = status.api_url;
  agent = new Agent({ ca: await readFile(status.ca_file, 'utf8'), keepAlive: false });
  key = (await json<{ api_key: string }>('site', 'add', HOST, '--origin', 'http://127.0.0.1:9')).api_key;
  const { token } = await json<{ token: string }>('token', 'create', 'top-e2e');
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

  // 8.8.8.8: 4 requests (2 blocked by status 403) to /wp-login.php; 127.0.0.1 (no country): 2 to /.
  const nowS = Math.floor(Date.now() / 1000);
  const access = [
    ...[200, 403, 403, 200].map((status, i) => ({ uri: `/wp-login.php?try=${i}`, client_ip: '8.8.8.8', status })),
    ...[200, 404].map((status) => ({ uri: '/', client_ip: '127.0.0.1', status })),
  ].map((e, i) => ({ ...e, timestamp: nowS - i, host: HOST, method: 'GET', bytes_sent: 10 }));
  expect((await https('POST', '/api/vector/access', headers, JSON.stringify(access))).body).toMatchObject({ processed: 6 });
  const waf = ['942100', '942100', '930120'].map((rule_id, i) => ({
    timestamp_ms: Date.now() - i * 1000, host: HOST, client_ip: '8.8.8.8', uri: '/wp-login.php', method: 'POST',
    waf_file: 'REQUEST-942-APPLICATION-ATTACK-SQLI.conf', rule_id, severity: 'CRITICAL', msg: 'm',
  }));
  expect((await https('POST', '/api/vector/waf', headers, JSON.stringify(waf))).body).toMatchObject({ processed: 3 });
}, 180_000);

afterAll(() => stopAll(), 60_000);

describe('GET /api/v1/analytics?top=KIND over HTTPS', () => {
  it('adds the top list to the spec 2.3 answer, cut to limit, and leaves the answer as it was without top', async () => {
    const ips = await analytics('?period=24h&top=ips&limit=1');
    expect(ips.status).toBe(200);
    const data = AnalyticsWithTopSchema.parse(ips.body.data);
    expect(data).toMatchObject({ period: '24h', total_requests: 6, requests_blocked: 2 });
    expect(data.top).toEqual({ kind: 'ips', limit: 1, total: 6, distinct: 2, exact: true, items: [{ key: '8.8.8.8', count: 4, blocked: 2 }] });

    const plain = await analytics('?period=24h');
    expect(Object.keys(plain.body.data).sort()).toEqual(Object.keys(AnalyticsSchema.shape).sort());
    expect((await analytics('?top=statuses')).body.data.top.limit).toBe(10);
    // Without top, limit is a parameter the spec does not name: ignored, as before top lists.
    const withLimit = await analytics('?period=24h&limit=abc');
    expect(withLimit.status).toBe(200);
    expect(withLimit.body.data).toEqual(plain.body.data);
  });

  it('refuses a bad kind, limit or period with 422 validation_error naming the parameter', async () => {
    for (const [query, field] of [['?top=banana', 'top'], ['?top=ips&limit=0', 'limit'], ['?top=ips&limit=abc', 'limit'], ['?top=ips&limit=101', 'limit'], ['?top=ips&period=1y', 'period']]) {
      const r = await analytics(query);
      expect(r.status, query).toBe(422);
      expect(ErrorEnvelopeSchema.parse(r.body)).toMatchObject({ error: 'validation_error', message: expect.stringContaining(`${field}:`) });
    }
  });
});

describe('wafctl analytics --top as a process', () => {
  it('prints a table of the top IPs and its summary line', async () => {
    const r = await d.wafctl('analytics', '--top', 'ips');
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^IP\s+REQUESTS\s+SHARE\s+BLOCKED$/);
    expect(lines[1]).toMatch(/^8\.8\.8\.8\s+4\s+67%\s+2$/);
    expect(lines[2]).toMatch(/^127\.0\.0\.1\s+2\s+33%\s+0$/);
    expect(r.stderr).toContain('top 2 of 2 client IPs, 24h, 6 requests');
  });

  it('prints each kind as JSON items: URI paths, rules with their group, countries, statuses', async () => {
    expect(await json<TopItem[]>('analytics', '--top', 'uris', '--limit', '1')).toEqual([{ key: '/wp-login.php', count: 4, blocked: 2 }]);
    expect(await json<TopItem[]>('analytics', '--top', 'rules', '--period', '7d')).toEqual([
      { key: '942100', count: 2, blocked: 0, group: 'crs' },
      { key: '930120', count: 1, blocked: 0, group: 'crs' },
    ]);
    // Ingested entries carry no country: the daemon looks it up; loopback has none.
    expect((await json<TopItem[]>('analytics', '--top', 'countries')).map((i) => [i.key, i.count])).toEqual([['US', 4], ['unknown', 2]]);
    expect((await json<TopItem[]>('analytics', '--top', 'statuses')).map((i) => [i.key, i.count])).toEqual([['200', 3], ['403', 2], ['404', 1]]);
  });

  it('exits 2 with a usage error for a bad kind, limit or period, before calling the API', async () => {
    for (const args of [['--top', 'banana'], ['--top', 'ips', '--limit', '0'], ['--top', 'ips', '--limit', 'abc'], ['--top', 'ips', '--period', '1y'], ['--limit', '5']]) {
      const r = await d.wafctl('analytics', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/^error: usage_error: /);
      expect(r.stdout).toBe('');
    }
  });
});

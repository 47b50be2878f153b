// The Atomic Edge WordPress plugin's older dialect beside the spec, against the real
// daemon over real HTTPS (its CA pinned): the X-AtomicEdge-Key header, POST /connect, `plan`,
// DELETE /access/ip/{type}/{ip}, `wordpress_version` / `wordpress`, and their bad inputs.
import { readFile } from 'node:fs/promises';
import { Agent, request as httpsRequest } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema, IpRulesSchema, SiteInfoSchema, successEnvelope } from '../../shared/schemas/management-api.js';
import { VulnCheckResponseSchema } from '../../shared/schemas/vulndb.js';
import { SAMPLE_FEED } from '../daemon/vulndb/helpers.js';
import { newSandbox, quickStartFlags, stopAll, type E2eDaemon } from './daemon-harness.js';

let d: E2eDaemon;
let apiUrl: string;
let agent: Agent;
let key: string;

async function json<T>(...args: string[]): Promise<T> {
  const result = await d.wafctl('--json', ...args);
  if (result.code !== 0) throw new Error(`wafctl ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** One request under /api/v1 with exactly the headers given (no key unless one is passed). */
function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const all = { accept: 'application/json', ...(text === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }), ...headers };
    const req = httpsRequest(new URL(`/api/v1${path}`, apiUrl), { method, agent, headers: all }, (res) => {
      let out = '';
      res.on('data', (chunk) => (out += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: out ? JSON.parse(out) : null }));
    });
    req.on('error', reject);
    req.end(text);
  });
}
const plugin = (method: string, path: string, body?: unknown, withKey = key) => call(method, path, { 'x-atomicedge-key': withKey }, body);
const errorOf = (res: { status: number; body: unknown }) => ({ status: res.status, error: ErrorEnvelopeSchema.parse(res.body).error });

beforeAll(async () => {
  d = await newSandbox();
  const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)));
  expect(start.code, start.stderr).toBe(0);
  const status = await json<{ api_url: string; ca_file: string }>('daemon', 'status');
  apiUrl = status.api_url;
  agent = new Agent({ ca: await readFile(status.ca_file, 'utf8'), keepAlive: false });
  key = (await json<{ api_key: string }>('site', 'add', 'blog.example.test', '--origin', 'http://127.0.0.1:9')).api_key;
  expect((await d.wafctl('vulndb', 'import', SAMPLE_FEED)).code).toBe(0);
}, 180_000);

afterAll(() => stopAll(), 60_000);

describe('the key in X-AtomicEdge-Key', () => {
  it('is taken as X-Service-Key is, with the same errors', async () => {
    expect((await plugin('GET', '/ip-rules')).status).toBe(200);
    expect(errorOf(await call('GET', '/ip-rules', {}))).toEqual({ status: 401, error: 'missing_api_key' });
    expect(errorOf(await plugin('GET', '/ip-rules', undefined, 'short'))).toEqual({ status: 401, error: 'invalid_api_key_format' });
    expect(errorOf(await plugin('GET', '/ip-rules', undefined, 'a'.repeat(64)))).toEqual({ status: 401, error: 'invalid_api_key' });
  });

  it('agrees with X-Service-Key when both are sent, and is refused when they differ', async () => {
    expect((await call('GET', '/ip-rules', { 'x-service-key': key, 'x-atomicedge-key': key })).status).toBe(200);
    const differ = await call('GET', '/ip-rules', { 'x-service-key': key, 'x-atomicedge-key': 'b'.repeat(64) });
    expect(errorOf(differ)).toEqual({ status: 401, error: 'invalid_api_key' });
    expect(differ.body.message).toMatch(/different keys/);
  });
});

describe('POST /connect', () => {
  it('answers as GET /connect, with plan beside plan_tier in both', async () => {
    const posted = successEnvelope(SiteInfoSchema).parse((await plugin('POST', '/connect', { api_key: key, site_url: 'blog.example.test/wp' })).body);
    const got = successEnvelope(SiteInfoSchema).parse((await plugin('GET', '/connect')).body);
    expect(posted).toEqual(got);
    expect(got.data).toMatchObject({ domain: 'blog.example.test', plan_tier: 'free', plan: 'free' });
  });

  it('refuses a body key other than the header key, and bad field types, changing nothing', async () => {
    expect(errorOf(await plugin('POST', '/connect', { api_key: 'c'.repeat(64), site_url: 'x' }))).toEqual({ status: 401, error: 'invalid_api_key' });
    const badType = await plugin('POST', '/connect', { api_key: key, site_url: 42 });
    expect(errorOf(badType)).toEqual({ status: 422, error: 'validation_error' });
    expect(badType.body.message).toMatch(/^site_url: must be a string/);
    expect(errorOf(await plugin('POST', '/connect', { api_key: key }, 'd'.repeat(64)))).toEqual({ status: 401, error: 'invalid_api_key' });
  });
});

describe('DELETE /access/ip/{type}/{ip}', () => {
  it('removes IPv4, IPv6 and CIDR entries named URL-encoded in the path, as DELETE /ip-rules does', async () => {
    for (const [list, ip] of [['blacklist', '203.0.113.9'], ['blacklist', '2001:db8::/48'], ['whitelist', '10.1.0.0/16']]) {
      expect((await plugin('POST', `/ip-rules/${list}`, { ip, description: '' })).status).toBe(201);
    }
    const removed = await plugin('DELETE', `/access/ip/blacklist/${encodeURIComponent('2001:DB8:0::/48')}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true, message: '2001:db8::/48 removed from the blacklist' });
    expect((await plugin('DELETE', `/access/ip/whitelist/${encodeURIComponent('10.1.0.0/16')}`)).status).toBe(200);
    expect((await plugin('DELETE', '/access/ip/blacklist/203.0.113.9')).status).toBe(200);
    expect(IpRulesSchema.parse((await plugin('GET', '/ip-rules')).body.data)).toEqual({ whitelist: [], blacklist: [] });
  });

  it('answers a bad type 422, an unlisted ip 404, a missing key 401, and changes nothing', async () => {
    expect((await plugin('POST', '/ip-rules/blacklist', { ip: '198.51.100.1' })).status).toBe(201);
    const badType = await plugin('DELETE', '/access/ip/greylist/198.51.100.1');
    expect(errorOf(badType)).toEqual({ status: 422, error: 'validation_error' });
    expect(badType.body.message).toMatch(/^type: /);
    expect(errorOf(await plugin('DELETE', '/access/ip/whitelist/198.51.100.1'))).toEqual({ status: 404, error: 'not_found' });
    expect(errorOf(await call('DELETE', '/access/ip/blacklist/198.51.100.1', {}))).toEqual({ status: 401, error: 'missing_api_key' });
    expect(errorOf(await plugin('GET', '/access/ip/blacklist/198.51.100.1'))).toEqual({ status: 405, error: 'method_not_allowed' });
    expect((await plugin('GET', '/ip-rules')).body.data.blacklist.map((r: { ip: string }) => r.ip)).toEqual(['198.51.100.1']);
    expect((await plugin('DELETE', '/access/ip/blacklist/198.51.100.1')).status).toBe(200);
  });
});

describe('the vulnerability check in the plugin dialect', () => {
  const body = { plugins: [{ slug: 'contact-form-7', version: '5.3.1', name: 'Contact Form 7' }], themes: [] };

  it('takes wordpress_version as cms_version and puts core findings under wordpress as well as cms', async () => {
    const res = await plugin('POST', '/wp/vulnerabilities/check', { wordpress_version: '5.8.2', ...body });
    expect(res.status).toBe(200);
    const parsed = VulnCheckResponseSchema.parse(res.body);
    expect(parsed.cms.vulnerabilities.length).toBeGreaterThan(0);
    expect(res.body.wordpress).toEqual(res.body.cms);
    const spec = await plugin('POST', '/wp/vulnerabilities/check', { cms_version: '5.8.2', ...body });
    expect({ ...spec.body, checked_at: 0 }).toEqual({ ...res.body, checked_at: 0 });
  });

  it('says a missing version is required, and refuses two versions that differ', async () => {
    const missing = await plugin('POST', '/wp/vulnerabilities/check', body);
    expect(errorOf(missing)).toEqual({ status: 422, error: 'validation_error' });
    expect(missing.body.message).toBe('cms_version: is required');
    const both = await plugin('POST', '/wp/vulnerabilities/check', { cms_version: '5.8.2', wordpress_version: '6.4', ...body });
    expect(errorOf(both)).toEqual({ status: 422, error: 'validation_error' });
    expect(both.body.message).toMatch(/differ/);
  });
});

describe('geo rules of a new site', () => {
  it('are the defaults, disabled with no countries, not 404 no_settings', async () => {
    expect((await plugin('GET', '/geo-rules')).body).toEqual({ success: true, data: { enabled: false, mode: 'blacklist', countries: [] } });
  });
});

// The proof: the Atomic Edge WordPress plugin's own classes (release 1.2.0, unmodified,
// from WAFCTL_WP_PLUGIN_DIR) run in PHP under test/wp-plugin/shim against a real daemon over HTTPS
// with its CA, through every call its admin pages, hourly sync and vulnerability scanner make. The
// plugin must accept every answer: no PHP warning, notice or exception, and the page gets success
// (or, on the error paths, wafctl's message).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_FEED } from '../daemon/vulndb/helpers.js';
import { newSandbox, quickStartFlags, stopAll, tempDir, type E2eDaemon } from '../e2e/daemon-harness.js';
import { byName, runDriver, whyNotRunnable, type WordPress } from './run-driver.js';

const skipReason = whyNotRunnable();
// Six real country codes: one more than the free plan's five.
const OVER_THE_FREE_PLAN = ['DE', 'FR', 'GB', 'IT', 'ES', 'NL'];
if (skipReason) console.warn(`test/wp-plugin/plugin-run.test.ts skipped: ${skipReason}`);

let d: E2eDaemon;
let apiUrl: string;
let caFile: string;
let token: string;
let work: string;

async function json<T>(...args: string[]): Promise<T> {
  const result = await d.wafctl('--json', ...args);
  if (result.code !== 0) throw new Error(`wafctl ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

async function addSite(domain: string): Promise<string> {
  return (await json<{ api_key: string }>('site', 'add', domain, '--origin', 'http://127.0.0.1:9')).api_key;
}

/** A fresh WordPress install (its own options file) for a site at `home`. */
function wordpress(name: string, env: Record<string, string> = {}): WordPress {
  return { apiUrl: `${apiUrl}/api/v1`, caFile, db: join(work, `${name}.db`), env };
}

async function ingest(kind: 'waf' | 'access', name: string, entries: object[]): Promise<void> {
  const file = join(work, `${name}.ndjson`);
  await writeFile(file, entries.map((e) => JSON.stringify(e)).join('\n') + '\n');
  const result = await d.wafctl('ingest', kind, file, '--token', token);
  expect(result.code, result.stderr).toBe(0);
}

beforeAll(async () => {
  if (skipReason) return;
  work = await tempDir('wafctl-wp-plugin-');
  d = await newSandbox();
  const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)));
  expect(start.code, start.stderr).toBe(0);
  ({ api_url: apiUrl, ca_file: caFile } = await json<{ api_url: string; ca_file: string }>('daemon', 'status'));
  token = (await json<{ token: string }>('token', 'create', 'wp-plugin-run')).token;
  expect((await d.wafctl('vulndb', 'import', SAMPLE_FEED)).code).toBe(0);
}, 180_000);

afterAll(() => stopAll(), 60_000);

describe.skipIf(skipReason !== null)('the WordPress plugin 1.2.0 against wafctl', () => {
  it('connects, and its dashboard, analytics, WAF logs, access pages, scanner and hourly sync accept every answer', async () => {
    const host = 'blog.example.test';
    const key = await addSite(host);
    const now = Date.now();
    // 60 WAF events, every other one a `union select` in the query string, and 30 access entries.
    await ingest('waf', 'blog-waf', Array.from({ length: 60 }, (_, i) => ({
      timestamp_ms: now - i * 60_000, host, client_ip: `198.51.100.${(i % 5) + 1}`, method: 'GET',
      uri: i % 2 ? `/?q=union%20select%20${i}` : '/wp-login.php?file=../../etc/passwd',
      waf_file: '/usr/share/modsecurity-crs/rules/REQUEST-930-APPLICATION-ATTACK-LFI.conf', rule_id: '930100', severity: 'CRITICAL', msg: 'Path Traversal Attack (/../)',
    })));
    await ingest('access', 'blog-access', Array.from({ length: 30 }, (_, i) => ({
      timestamp: Math.floor(now / 1000) - i * 60, host, client_ip: `203.0.113.${(i % 3) + 1}`, uri: '/', method: 'GET', status: i % 3 ? 200 : 403, bytes_sent: 512,
    })));

    const wp = wordpress('blog', { WAFCTL_WP_HOME: `https://www.${host}/`, WAFCTL_WP_VERSION: '5.8.2', WAFCTL_WP_PLUGINS: JSON.stringify([{ slug: 'contact-form-7', version: '5.3.1', name: 'Contact Form 7' }]), WAFCTL_WP_THEMES: JSON.stringify([{ slug: 'twentytwentyone', version: '1.4', name: 'Twenty Twenty-One' }]) });
    const whitelist = ['192.0.2.1', '192.0.2.2', '2001:db8:1::1', '10.0.0.0/8', '2001:db8:2::/48'];
    const r = byName(await runDriver(wp, [
      { name: 'connect', form: 'connect', key },
      ...['24h', '7d', '30d'].map((period) => ({ name: `analytics ${period}`, ajax: 'atomicedge_get_analytics', post: { period } })),
      { name: 'logs page 1', ajax: 'atomicedge_get_waf_logs', post: { page: 1, per_page: 25 } },
      { name: 'logs page 3', ajax: 'atomicedge_get_waf_logs', post: { page: 3, per_page: 25 } },
      { name: 'logs search text', ajax: 'atomicedge_get_waf_logs', post: { page: 1, per_page: 50, search: 'union select' } },
      { name: 'logs search ip', ajax: 'atomicedge_get_waf_logs', post: { page: 1, per_page: 50, search: '198.51.100.3' } },
      ...whitelist.map((ip) => ({ name: `whitelist ${ip}`, ajax: 'atomicedge_add_ip_whitelist', post: { ip, description: `office ${ip}` } })),
      { name: 'whitelist over the plan', ajax: 'atomicedge_add_ip_whitelist', post: { ip: '192.0.2.9' } },
      { name: 'blacklist IPv4', ajax: 'atomicedge_add_ip_blacklist', post: { ip: '198.51.100.7', description: 'scanner' } },
      { name: 'blacklist IPv6 CIDR', ajax: 'atomicedge_add_ip_blacklist', post: { ip: '2001:db8:dead::/48' } },
      { name: 'blacklist duplicate', ajax: 'atomicedge_add_ip_blacklist', post: { ip: '198.51.100.7' } },
      { name: 'blacklist a whitelisted ip', ajax: 'atomicedge_add_ip_blacklist', post: { ip: '192.0.2.1' } },
      { name: 'ip list', ajax: 'atomicedge_get_ip_rules' },
      { name: 'remove IPv6 CIDR', ajax: 'atomicedge_remove_ip', post: { ip: '2001:db8:dead::/48', type: 'blacklist' } },
      { name: 'remove IPv4 CIDR', ajax: 'atomicedge_remove_ip', post: { ip: '10.0.0.0/8', type: 'whitelist' } },
      { name: 'remove unlisted', ajax: 'atomicedge_remove_ip', post: { ip: '198.51.100.99', type: 'blacklist' } },
      { name: 'ip list after', ajax: 'atomicedge_get_ip_rules' },
      { name: 'geo rules of a new site', ajax: 'atomicedge_get_geo_rules' },
      { name: 'geo rules set', ajax: 'atomicedge_update_geo_rules', post: { enabled: 'true', mode: 'whitelist', countries: ['CA', 'US', 'xx'] } },
      { name: 'geo rules over the plan', ajax: 'atomicedge_update_geo_rules', post: { enabled: 'true', mode: 'blacklist', countries: OVER_THE_FREE_PLAN } },
      { name: 'geo rules after', ajax: 'atomicedge_get_geo_rules' },
      { name: 'vulnerability scan', ajax: 'atomicedge_run_vulnerability_scan', post: { force_refresh: 'true' } },
      { name: 'vulnerability results', ajax: 'atomicedge_get_vulnerability_results' },
      { name: 'hourly sync', cron: 'atomicedge_sync_settings' },
    ]));

    expect(r.connect.ok).toBe(true);
    expect(r.connect.result.notices).toEqual([{ type: 'success', message: 'Successfully connected to Atomic Edge!' }]);
    expect(r.connect.result.site_data).toMatchObject({ domain: host, plan: 'free' });
    expect(r.connect.log).toContain(`Successfully connected to Atomic Edge {"site_url":"${host}"}`);

    for (const [period, hours] of [['24h', 24], ['7d', 168], ['30d', 720]] as const) {
      const page = r[`analytics ${period}`];
      expect(page.ok, JSON.stringify(page.result)).toBe(true);
      expect(page.result.data).toMatchObject({ period, total_requests: 30 });
      expect(page.result.data.hourly_data.length).toBeGreaterThanOrEqual(hours);
    }

    expect(r['logs page 1'].ok).toBe(true);
    expect(r['logs page 1'].result.data.logs).toHaveLength(25);
    expect(r['logs page 1'].result.data.pagination).toMatchObject({ total: 60, total_pages: 3 });
    expect(r['logs page 3'].result.data.logs).toHaveLength(10);
    expect(r['logs search text'].result.data.logs).toHaveLength(30);
    expect(r['logs search text'].result.data.logs.every((l: { uri: string }) => l.uri.includes('union%20select'))).toBe(true);
    expect(r['logs search ip'].result.data.logs.map((l: { client_ip: string }) => l.client_ip)).toEqual(Array(12).fill('198.51.100.3'));

    for (const ip of whitelist) expect(r[`whitelist ${ip}`].result).toEqual({ success: true, data: { message: 'IP added to whitelist successfully.' } });
    expect(r['whitelist over the plan'].result).toEqual({ success: false, data: { message: 'The free plan allows at most 5 entries in the whitelist' } });
    expect(r['blacklist IPv4'].ok).toBe(true);
    expect(r['blacklist IPv6 CIDR'].ok).toBe(true);
    expect(r['blacklist duplicate'].result).toEqual({ success: false, data: { message: '198.51.100.7 is already in the blacklist' } });
    expect(r['blacklist a whitelisted ip'].result).toEqual({ success: false, data: { message: '192.0.2.1 is already in the whitelist; remove it there first' } });
    expect(r['ip list'].result.data.whitelist.map((e: { ip: string }) => e.ip)).toEqual(whitelist);
    expect(r['ip list'].result.data.blacklist.map((e: { ip: string }) => e.ip)).toEqual(['198.51.100.7', '2001:db8:dead::/48']);
    expect(r['ip list'].result.data.blacklist[0]).toMatchObject({ description: 'scanner' });
    expect(r['remove IPv6 CIDR'].result).toEqual({ success: true, data: { message: 'IP removed successfully.' } });
    expect(r['remove IPv4 CIDR'].ok).toBe(true);
    expect(r['remove unlisted'].ok).toBe(false);
    expect(r['remove unlisted'].result.data.message).toMatch(/198\.51\.100\.99/);
    expect(r['ip list after'].result.data.whitelist.map((e: { ip: string }) => e.ip)).toEqual(whitelist.filter((ip) => ip !== '10.0.0.0/8'));
    expect(r['ip list after'].result.data.blacklist.map((e: { ip: string }) => e.ip)).toEqual(['198.51.100.7']);

    expect(r['geo rules of a new site'].result).toEqual({ success: true, data: { enabled: false, mode: 'blacklist', countries: [] } });
    expect(r['geo rules set'].result).toEqual({ success: true, data: { message: 'Geographic rules updated successfully.' } });
    expect(r['geo rules over the plan'].ok).toBe(false);
    expect(r['geo rules over the plan'].result.data.message).toBe('The free plan allows at most 5 countries in geo rules');
    expect(r['geo rules after'].result.data).toEqual({ enabled: true, mode: 'whitelist', countries: ['CA', 'US'] });

    const scan = r['vulnerability scan'];
    expect(scan.ok, JSON.stringify(scan.result)).toBe(true);
    expect(scan.result.data.wordpress).toMatchObject({ name: 'WordPress', version: '5.8.2' });
    expect(scan.result.data.wordpress.vulnerabilities.length).toBeGreaterThan(0);
    expect(scan.result.data.plugins.map((p: { slug: string }) => p.slug)).toEqual(['contact-form-7']);
    expect(scan.result.data.plugins[0].vulnerabilities[0]).toMatchObject({ fix_available: expect.any(Boolean), severity_class: expect.stringMatching(/^atomicedge-severity-/) });
    expect(scan.result.data.summary.total_vulnerabilities).toBeGreaterThan(0);
    expect(r['vulnerability results'].result.data).toMatchObject({ available: true, results: { summary: scan.result.data.summary } });

    expect(r['hourly sync'].ok).toBe(true);
    expect(r['hourly sync'].log).toEqual(['Syncing settings with AtomicEdge', 'API Request: GET /connect', 'Settings sync completed']);
    expect(r['hourly sync'].result.site_data).toEqual(r.connect.result.site_data);
  });

  // Every page of a WordPress already connected, after wafctl's side changed under it.
  const everyPage = [
    { name: 'clear cache', ajax: 'atomicedge_clear_cache' },
    { name: 'analytics', ajax: 'atomicedge_get_analytics', post: { period: '7d' } },
    { name: 'logs', ajax: 'atomicedge_get_waf_logs', post: { page: 1, per_page: 50 } },
    { name: 'ip list', ajax: 'atomicedge_get_ip_rules' },
    { name: 'blacklist', ajax: 'atomicedge_add_ip_blacklist', post: { ip: '198.51.100.1' } },
    { name: 'remove', ajax: 'atomicedge_remove_ip', post: { ip: '198.51.100.1', type: 'blacklist' } },
    { name: 'geo rules', ajax: 'atomicedge_get_geo_rules' },
    { name: 'geo rules set', ajax: 'atomicedge_update_geo_rules', post: { enabled: 'false', mode: 'blacklist' } },
    { name: 'vulnerability scan', ajax: 'atomicedge_run_vulnerability_scan', post: { force_refresh: 'true' } },
    { name: 'hourly sync', cron: 'atomicedge_sync_settings' },
  ];
  const failingPages = everyPage.map((s) => s.name).filter((n) => n !== 'clear cache' && n !== 'hourly sync');

  /** Connects a fresh WordPress to a new site, lets `change` act on wafctl, then opens every page. */
  async function pagesAfter(domain: string, change: (key: string) => Promise<void>) {
    const key = await addSite(domain);
    const wp = wordpress(domain);
    expect(byName(await runDriver(wp, [{ name: 'connect', form: 'connect', key }])).connect.ok).toBe(true);
    await change(key);
    return byName(await runDriver(wp, everyPage));
  }

  function expectEveryPageSays(r: Record<string, { ok: boolean; result: any }>, message: string) {
    expect(r['clear cache'].ok).toBe(true);
    for (const name of failingPages) expect({ name, ...r[name].result }).toEqual({ name, success: false, data: { message } });
    // The sync fails and keeps the site data the plugin had.
    expect(r['hourly sync'].ok).toBe(false);
  }

  it('shows "The site is not active." on every page of a disabled site, and works again once enabled', async () => {
    const domain = 'disabled.example.test';
    const r = await pagesAfter(domain, async () => expect((await d.wafctl('site', 'disable', domain)).code).toBe(0));
    expectEveryPageSays(r, 'The site is not active.');
    expect((await d.wafctl('site', 'enable', domain)).code).toBe(0);
    const again = byName(await runDriver(wordpress(domain), [{ name: 'ip list', ajax: 'atomicedge_get_ip_rules' }, { name: 'sync', cron: 'atomicedge_sync_settings' }]));
    expect(again['ip list'].result).toEqual({ success: true, data: { whitelist: [], blacklist: [] } });
    expect(again.sync.ok).toBe(true);
  });

  it('shows "The site has been deleted." on every page of a deleted site', async () => {
    const domain = 'deleted.example.test';
    const r = await pagesAfter(domain, async () => expect((await d.wafctl('site', 'delete', domain)).code).toBe(0));
    expectEveryPageSays(r, 'The site has been deleted.');
  });

  it('refuses a wrong key at connect and on every page once the key is regenerated', async () => {
    const domain = 'rekeyed.example.test';
    const r = await pagesAfter(domain, async () => expect((await d.wafctl('site', 'key', domain, '--regenerate')).code).toBe(0));
    const message = r.analytics.result.data.message;
    expect(message).toMatch(/key/i);
    expectEveryPageSays(r, message);

    const fresh = byName(await runDriver(wordpress('wrong-key'), [
      { name: 'wrong key', form: 'connect', key: 'W'.repeat(64) },
      { name: 'short key', form: 'connect', key: 'W'.repeat(31) },
      { name: 'analytics', ajax: 'atomicedge_get_analytics', post: { period: '24h' } },
    ]));
    expect(fresh['wrong key'].result).toMatchObject({ notices: [{ type: 'error', message }], connected: false, site_data: null });
    // The plugin's own format check: nothing is sent.
    expect(fresh['short key'].result.notices[0].message).toMatch(/^Invalid API key format/);
    expect(fresh['short key'].log).toEqual([]);
    expect(fresh.analytics.result).toEqual({ success: false, data: { message: 'Not connected to Atomic Edge.' } });
  });
});

// The protection routes of the admin socket (ROUTES.md), over a real unix socket against a real
// config store: rate limits, protected pages, bot protection, site settings, user rule files.
// Every refused change leaves config.json byte for byte as it was. Each test gets its own data dir,
// store and server with the two sites freshly added, so it passes alone and in any order.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAdminServer, type AdminServer } from '../../../daemon/admin/server.js';
import { openConfigStore, type ConfigStore } from '../../../daemon/store/config/config-store.js';
import { createLocalCa, createServerCertificate } from '../../../daemon/tls/certificates.js';
import { AdminClient } from '../../../shared/admin-client.js';
import { WafctlError } from '../../../shared/errors.js';
import type { DaemonStatus } from '../../../shared/schemas/admin.js';

let dir: string;
let store: ConfigStore;
let server: AdminServer;
let client: AdminClient;
let crsDir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wafctl-protect-'));
  crsDir = join(dir, 'no-crs'); // no CRS here: rule sets compile in milliseconds (cms group only)
  await mkdir(crsDir);
  store = await openConfigStore(join(dir, 'config.json'));
  const status: DaemonStatus = {
    pid: process.pid, version: '0.0.0', started_at: new Date().toISOString(), uptime_s: 1, data_dir: dir,
    ports: { edge: 1, edge_tls: 2, api: 3 }, api_url: 'https://127.0.0.1:3', ca_file: null, admin_socket: join(dir, 'wafctl.sock'),
    sites: 0, crs: { found: false, dir: crsDir }, workers: 1, demo: null, edge: null, certificates: [],
    write_failures: { events: null, log: null },
    cluster: null,
  };
  server = await createAdminServer({
    socketPath: join(dir, 'wafctl.sock'),
    logger: pino({ level: 'silent' }),
    deps: { store, now: () => new Date(), status: () => status, reload: async () => ({ ok: true }), requestShutdown: () => undefined },
  });
  await server.listen();
  client = new AdminClient(join(dir, 'wafctl.sock'));
  await client.addSite({ domain: 'shop.example.test', origin: 'http://127.0.0.1:8081' });
  await client.addSite({ domain: 'other.example.test', origin: 'http://127.0.0.1:8082', plan: 'enterprise' });
});
afterEach(async () => {
  await client.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function refused(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WafctlError) return `${error.code}: ${error.message}`;
    throw error;
  }
  throw new Error('expected a refusal');
}

/** Runs `act`, expects it refused with `code`, and config.json unchanged. */
async function refusedUnchanged(act: () => Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  const before = await readFile(join(dir, 'config.json'), 'utf8');
  const answer = await refused(act());
  expect(answer.split(':')[0], answer).toBe(code);
  if (message) expect(answer).toMatch(message);
  expect(await readFile(join(dir, 'config.json'), 'utf8')).toBe(before);
}

describe('rate limits', () => {
  it('adds, lists and removes paths in the edge normal form', async () => {
    expect(await client.listRateLimits('shop.example.test')).toEqual([]);
    expect(await client.addRateLimit('shop.example.test', { path: '/WP-Login.php', per_minute: 10 })).toEqual([{ path: '/wp-login.php', per_minute: 10 }]);
    await client.addRateLimit('shop.example.test', { path: '/api/', per_minute: 100 });
    expect(await client.listRateLimits('shop.example.test')).toEqual([{ path: '/wp-login.php', per_minute: 10 }, { path: '/api/', per_minute: 100 }]);
    expect(await client.removeRateLimit('shop.example.test', '/api/')).toEqual([{ path: '/wp-login.php', per_minute: 10 }]);
    const stored = store.snapshot().sites.find((s) => s.domain === 'shop.example.test')!;
    expect(stored.protection.rate_limits).toEqual([{ path: '/wp-login.php', per_minute: 10 }]);
  });

  it('refuses duplicates (any spelling), unknown paths, bad values and unknown sites, changing nothing', async () => {
    await client.addRateLimit('shop.example.test', { path: '/wp-login.php', per_minute: 10 });
    await refusedUnchanged(() => client.addRateLimit('shop.example.test', { path: '/%77p-login.php', per_minute: 5 }), 'duplicate', /wp-login\.php/);
    await refusedUnchanged(() => client.removeRateLimit('shop.example.test', '/nothing'), 'not_found');
    await refusedUnchanged(() => client.addRateLimit('shop.example.test', { path: 'no-slash', per_minute: 5 }), 'validation_error', /path: must start with \//);
    await refusedUnchanged(() => client.addRateLimit('shop.example.test', { path: '/a?b=1', per_minute: 5 }), 'validation_error', /no \? query/);
    await refusedUnchanged(() => client.addRateLimit('shop.example.test', { path: '/a', per_minute: 0 }), 'validation_error', /per_minute/);
    await refusedUnchanged(() => client.addRateLimit('shop.example.test', { path: '/a', per_minute: 1.5 }), 'validation_error', /per_minute/);
    await refusedUnchanged(() => client.addRateLimit('nope.example.test', { path: '/a', per_minute: 5 }), 'not_found');
  });

  it('applies the plan limit: 5 paths on free (403 limit_exceeded), more on enterprise', async () => {
    for (const p of ['/a', '/b', '/c', '/d', '/wp-login.php']) await client.addRateLimit('shop.example.test', { path: p, per_minute: 5 });
    expect(await client.listRateLimits('shop.example.test')).toHaveLength(5);
    await refusedUnchanged(() => client.addRateLimit('shop.example.test', { path: '/e', per_minute: 5 }), 'limit_exceeded', /free plan allows 5/);
    for (let i = 0; i < 7; i++) await client.addRateLimit('other.example.test', { path: `/p${i}`, per_minute: 5 });
    expect(await client.listRateLimits('other.example.test')).toHaveLength(7);
  });
});

describe('protected pages', () => {
  it('stores allow lists in canonical form, de-duplicated', async () => {
    const list = await client.addProtectedPage('shop.example.test', { path: '/wp-admin', allow: ['203.0.113.7', '2001:DB8:0::1', '::ffff:10.0.0.0/104', '203.0.113.7', '10.0.0.0/8'] });
    expect(list).toEqual([{ path: '/wp-admin', allow: ['203.0.113.7', '2001:db8::1', '10.0.0.0/8'] }]);
    expect(await client.listProtectedPages('shop.example.test')).toEqual(list);
  });

  it('refuses bad addresses, empty lists, duplicates and unknown paths, changing nothing', async () => {
    await client.addProtectedPage('shop.example.test', { path: '/wp-admin', allow: ['203.0.113.7'] });
    await refusedUnchanged(() => client.addProtectedPage('shop.example.test', { path: '/x', allow: ['203.0.113.7', '1.2.3'] }), 'validation_error', /allow\[1\].*1\.2\.3/);
    await refusedUnchanged(() => client.addProtectedPage('shop.example.test', { path: '/x', allow: [] }), 'validation_error', /allow/);
    await refusedUnchanged(() => client.addProtectedPage('shop.example.test', { path: '/x', allow: ['10.1.2.3/8'] }), 'validation_error', /allow\[0\].*host bits.*10\.0\.0\.0\/8/);
    await refusedUnchanged(() => client.addProtectedPage('shop.example.test', { path: '/x', allow: ['::ffff:1.2.3.4/95'] }), 'validation_error', /allow\[0\]/);
    await refusedUnchanged(() => client.addProtectedPage('shop.example.test', { path: '/WP-ADMIN', allow: ['1.2.3.4'] }), 'duplicate');
    await refusedUnchanged(() => client.removeProtectedPage('shop.example.test', '/x'), 'not_found');
  });

  it('finds a path stored by an older release (an earlier normal form) by any spelling', async () => {
    // Older releases kept `;params` and trailing dots in the stored form; the edge now reads both as /legacy.
    await store.update((draft) => { draft.sites.find((s) => s.domain === 'other.example.test')!.protection.protected_pages.push({ path: '/legacy;x.', allow: ['192.0.2.1'] }); });
    await refusedUnchanged(() => client.addProtectedPage('other.example.test', { path: '/LEGACY', allow: ['192.0.2.2'] }), 'duplicate');
    expect(await client.removeProtectedPage('other.example.test', '/%6cegacy')).toEqual([]);
  });

  it('applies the plan limit of 5 protected paths on free', async () => {
    for (const p of ['/wp-admin', '/p1', '/p2', '/p3', '/p4']) await client.addProtectedPage('shop.example.test', { path: p, allow: ['192.0.2.1'] });
    await refusedUnchanged(() => client.addProtectedPage('shop.example.test', { path: '/p5', allow: ['192.0.2.1'] }), 'limit_exceeded');
    expect(await client.removeProtectedPage('shop.example.test', '/p4')).toHaveLength(4);
  });
});

describe('bot protection', () => {
  it('turns on with a challenge, off keeping the choice, and refuses unknown challenges', async () => {
    expect(await client.getBot('shop.example.test')).toEqual({ enabled: false, challenge: 'off', challenge_exempt: [] });
    expect(await client.setBot('shop.example.test', { enabled: true, challenge: 'js' })).toEqual({ enabled: true, challenge: 'js', challenge_exempt: [] });
    expect(await client.setBot('shop.example.test', { enabled: false })).toEqual({ enabled: false, challenge: 'js', challenge_exempt: [] });
    await refusedUnchanged(() => client.setBot('shop.example.test', { enabled: true, challenge: 'captcha' as 'js' }), 'validation_error', /challenge/);
  });

  it('keeps exempt paths across on/off, drops repeats (any spelling), and refuses bad ones', async () => {
    const set = await client.setBot('shop.example.test', { enabled: true, challenge: 'js', challenge_exempt: ['/wc-api', '/WC-API', '/hooks/'] });
    expect(set.challenge_exempt).toEqual(['/wc-api', '/hooks/']);
    expect((await client.setBot('shop.example.test', { enabled: false })).challenge_exempt).toEqual(['/wc-api', '/hooks/']);
    await refusedUnchanged(() => client.setBot('shop.example.test', { enabled: true, challenge_exempt: ['nope'] }), 'validation_error', /challenge_exempt/);
    await refusedUnchanged(
      () => client.setBot('shop.example.test', { enabled: true, challenge_exempt: Array.from({ length: 101 }, (_, i) => `/p${i}`) }),
      'validation_error', /at most 100/,
    );
    expect((await client.setBot('shop.example.test', { enabled: false, challenge_exempt: [] })).challenge_exempt).toEqual([]);
  });
});

describe('site settings (site set)', () => {
  it('takes a detection paranoia at or above paranoia; below it: 422 naming both, nothing changed', async () => {
    const set = await client.updateSite('shop.example.test', { paranoia: 1, detection_paranoia: 3 });
    expect(set.settings).toMatchObject({ paranoia: 1, detection_paranoia: 3 });
    await refusedUnchanged(() => client.updateSite('shop.example.test', { paranoia: 4 }), 'validation_error', /detection_paranoia \(3\) must be at least paranoia \(4\)/);
    const follows = await client.updateSite('shop.example.test', { paranoia: 2, detection_paranoia: null });
    expect(follows.settings).toMatchObject({ paranoia: 2, detection_paranoia: 2 });
    expect((await client.updateSite('shop.example.test', { paranoia: 1 })).settings).toMatchObject({ paranoia: 1, detection_paranoia: 1 });
  });

  it('changes WAF settings and block response together, shown in the site view', async () => {
    const site = await client.updateSite('shop.example.test', {
      mode: 'detect', paranoia: 3, inbound_threshold: 12, outbound_threshold: 9, groups: { cms: false },
      block_response: 'drop', on_engine_error: 'open', body_over_limit: 'pass', response_inspection: 'off',
    });
    expect(site.settings).toEqual({
      mode: 'detect', paranoia: 3, detection_paranoia: 3, inbound_threshold: 12, outbound_threshold: 9, groups: { cms: false, crs: true }, block_user_enumeration: true,
      block_response: 'drop', on_engine_error: 'open', body_over_limit: 'pass', response_inspection: 'off', is_default: false, tls: 'generated',
    });
    const stored = store.snapshot().sites.find((s) => s.domain === 'shop.example.test')!;
    expect(stored.protection.waf).toMatchObject({ mode: 'detect', paranoia: 3, inbound_threshold: 12, on_error: 'open' });
    expect(stored.protection.response_inspection).toBe('off');
    await refusedUnchanged(() => client.updateSite('shop.example.test', { response_inspection: 'maybe' as 'on' }), 'validation_error', /response_inspection/);
  });

  it('refuses bad values, all or nothing', async () => {
    await refusedUnchanged(() => client.updateSite('shop.example.test', { mode: 'on', paranoia: 5 }), 'validation_error', /paranoia: must be 1-4/);
    await refusedUnchanged(() => client.updateSite('shop.example.test', { mode: 'block' as 'on' }), 'validation_error', /mode/);
    await refusedUnchanged(() => client.updateSite('shop.example.test', { block_response: '500' as '403' }), 'validation_error', /block_response/);
    await refusedUnchanged(() => client.updateSite('shop.example.test', { inbound_threshold: 0 }), 'validation_error', /inbound_threshold/);
    await refusedUnchanged(() => client.updateSite('shop.example.test', { groups: { waf: true } as never }), 'validation_error', /groups/);
    await refusedUnchanged(() => client.updateSite('shop.example.test', {}), 'validation_error', /at least one/);
    await refusedUnchanged(() => client.updateSite('shop.example.test', { mode: 'on', origin: 'ftp://x' }), 'validation_error', /origin/);
  });

  it('has one default site at a time', async () => {
    expect((await client.updateSite('shop.example.test', { is_default: true })).settings?.is_default).toBe(true);
    await refusedUnchanged(() => client.updateSite('other.example.test', { is_default: true }), 'duplicate', /shop\.example\.test is already the default/);
    await client.updateSite('shop.example.test', { is_default: false });
    expect((await client.updateSite('other.example.test', { is_default: true })).settings?.is_default).toBe(true);
    await client.updateSite('other.example.test', { is_default: false });
  });

  it('takes a matching certificate and key, refuses others (422), and goes back to the generated one', async () => {
    const ca = createLocalCa('test');
    const one = createServerCertificate(ca);
    const two = createServerCertificate(ca);
    const site = await client.updateSite('shop.example.test', { tls: { cert: one.certPem, key: one.keyPem } });
    expect(site.settings?.tls).toBe('site');
    expect(store.snapshot().sites.find((s) => s.domain === 'shop.example.test')!.tls).toEqual({ cert: one.certPem, key: one.keyPem });
    await refusedUnchanged(() => client.updateSite('shop.example.test', { tls: { cert: one.certPem, key: two.keyPem } }), 'validation_error', /tls\.key: does not match/);
    await refusedUnchanged(() => client.updateSite('shop.example.test', { tls: { cert: 'not a pem', key: one.keyPem } }), 'validation_error', /tls\.cert: not a PEM certificate/);
    await refusedUnchanged(() => client.updateSite('shop.example.test', { tls: { cert: one.certPem, key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' } }), 'validation_error', /tls\.key: not a PEM private key/);
    expect((await client.updateSite('shop.example.test', { tls: null })).settings?.tls).toBe('generated');
  });
});

describe('user rule files (rules set|show)', () => {
  it('shows the rule set of a site and where CRS is (not found here)', async () => {
    const view = await client.getRules('other.example.test');
    expect(view).toMatchObject({
      site: 'other.example.test', mode: 'on', paranoia: 1, inbound_threshold: 5, outbound_threshold: 4, groups: { cms: true, crs: true },
      before: null, after: null, crs: { found: false, dir: crsDir, rules_dir: null }, load: { ok: true, error: null },
    });
    expect(view.load.rules).toBeGreaterThan(10);
  });

  it('stores a file that loads, with its text and digest; null removes it', async () => {
    const text = 'SecRule ARGS "@contains wafctl-marker" "id:1000001,phase:2,deny,status:403,log,msg:\'marker\'"\n';
    const view = await client.setRules('other.example.test', { after: { path: '/etc/wafctl/mine.conf', text } });
    expect(view.after).toMatchObject({ path: '/etc/wafctl/mine.conf', lines: 1 });
    expect(view.load.ok).toBe(true);
    const stored = store.snapshot().sites.find((s) => s.domain === 'other.example.test')!.protection.waf;
    expect(stored.rules_after).toMatchObject({ path: '/etc/wafctl/mine.conf', text });
    expect((await client.setRules('other.example.test', { after: null })).after).toBeNull();
  });

  it('refuses a file with a SecLang error as file:line: reason, and one that clashes with loaded rule ids', async () => {
    await refusedUnchanged(
      () => client.setRules('other.example.test', { before: { path: '/etc/wafctl/bad.conf', text: '# fine\n\nSecRule ARGS "@nosuchop x" "id:1000002,phase:2,deny"\n' } }),
      'validation_error', /^validation_error: \/etc\/wafctl\/bad\.conf:3: .*nosuchop/,
    );
    await refusedUnchanged(
      () => client.setRules('other.example.test', { after: { path: '/etc/wafctl/dup.conf', text: 'SecAction "id:200120,phase:1,pass,nolog"\n' } }),
      'validation_error', /dup\.conf:1: .*200120/,
    );
    await refusedUnchanged(() => client.setRules('other.example.test', { after: { path: 'relative.conf', text: '' } }), 'validation_error', /absolute path/);
    await refusedUnchanged(() => client.setRules('other.example.test', {}), 'validation_error', /before or after/);
  });

  it('names a stored file that no longer loads in rules show (a referenced data file was removed)', async () => {
    const rulesDir = join(dir, 'user-rules');
    await mkdir(rulesDir);
    await writeFile(join(rulesDir, 'bad-agents.data'), 'evilbot\n');
    const text = 'SecRule REQUEST_HEADERS:User-Agent "@pmFromFile bad-agents.data" "id:1000010,phase:1,deny,log,msg:\'bad agent\'"\n';
    await client.setRules('other.example.test', { after: { path: join(rulesDir, 'agents.conf'), text } });
    await rm(join(rulesDir, 'bad-agents.data'));
    // A different combination (paranoia 2) is compiled afresh, without the data file.
    await client.updateSite('other.example.test', { paranoia: 2 });
    const view = await client.getRules('other.example.test');
    expect(view.load.ok).toBe(false);
    expect(view.load.error).toContain('agents.conf:1');
    await client.setRules('other.example.test', { after: null });
  });
});

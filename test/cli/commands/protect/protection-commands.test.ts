// protect, rules and site set through the real commander tree with an in-memory daemon: what each
// command line asks the daemon for, what it prints, and usage errors that never reach the daemon.
// The daemon side and the real binary are tested in test/daemon/admin and test/e2e/protection.test.ts.
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../../cli/run.js';
import { harness, type Harness } from '../../fakes.js';

async function withSite(env: Record<string, string> = {}): Promise<Harness> {
  const h = harness(env);
  await h.admin.addSite({ domain: 'shop.example.test', origin: 'http://127.0.0.1:9' });
  return h;
}

describe('wafctl protect', () => {
  it('rate-limit add/list/remove on --site, JSON lists, [] when empty', async () => {
    const h = await withSite();
    expect(await runCli(['--site', 'shop.example.test', 'protect', 'rate-limit', 'add', '/wp-login.php', '--per-minute', '10'], h.deps)).toBe(0);
    expect(h.io.out()).toMatch(/PATH\s+PER MINUTE\n\/wp-login\.php\s+10\n/);
    expect(h.io.err()).toContain('rate limit on shop.example.test: 10 per minute on /wp-login.php');
    const list = harness();
    list.admin.sites = h.admin.sites;
    list.admin.rateLimits = h.admin.rateLimits;
    expect(await runCli(['--json', '--site', 'shop.example.test', 'protect', 'rate-limit', 'list'], list.deps)).toBe(0);
    expect(JSON.parse(list.io.out())).toEqual([{ path: '/wp-login.php', per_minute: 10 }]);
    const rm = harness();
    rm.admin.sites = h.admin.sites;
    rm.admin.rateLimits = h.admin.rateLimits;
    expect(await runCli(['--json', '--site', 'shop.example.test', 'protect', 'rate-limit', 'remove', '/wp-login.php'], rm.deps)).toBe(0);
    expect(rm.io.out().trim()).toBe('[]');
  });

  it('takes the site from WAFCTL_SITE, and says how to name one when there is none', async () => {
    const h = await withSite({ WAFCTL_SITE: 'shop.example.test' });
    expect(await runCli(['protect', 'rate-limit', 'add', '/a', '--per-minute', '1'], h.deps)).toBe(0);
    expect(h.admin.rateLimits.get('shop.example.test')).toEqual([{ path: '/a', per_minute: 1 }]);
    const none = await withSite();
    expect(await runCli(['protect', 'rate-limit', 'list'], none.deps)).toBe(2);
    expect(none.io.err()).toBe('error: usage_error: no site given\nhint: name it with --site DOMAIN (or set WAFCTL_SITE)\n');
  });

  it('page add splits and trims --allow lists, and refuses an empty one before calling the daemon', async () => {
    const h = await withSite();
    expect(await runCli(['--site', 'shop.example.test', 'protect', 'page', 'add', '/wp-admin', '--allow', '203.0.113.7, 198.51.100.0/24', '--allow', '2001:db8::1'], h.deps)).toBe(0);
    expect(h.admin.pages.get('shop.example.test')).toEqual([{ path: '/wp-admin', allow: ['203.0.113.7', '198.51.100.0/24', '2001:db8::1'] }]);
    const empty = await withSite();
    expect(await runCli(['--site', 'shop.example.test', 'protect', 'page', 'add', '/x', '--allow', ' , '], empty.deps)).toBe(2);
    expect(empty.io.err()).toMatch(/^error: usage_error: --allow names no IP/);
    expect(empty.admin.pages.size).toBe(0);
  });

  it('bot on|off with --challenge; no state shows it; errors are usage errors', async () => {
    const h = await withSite();
    expect(await runCli(['--site', 'shop.example.test', 'protect', 'bot', 'on', '--challenge', 'js'], h.deps)).toBe(0);
    expect(h.admin.bots.get('shop.example.test')).toEqual({ enabled: true, challenge: 'js', challenge_exempt: [] });
    const show = harness();
    show.admin.sites = h.admin.sites;
    show.admin.bots = h.admin.bots;
    expect(await runCli(['--json', '--site', 'shop.example.test', 'protect', 'bot'], show.deps)).toBe(0);
    expect(JSON.parse(show.io.out())).toEqual({ enabled: true, challenge: 'js', challenge_exempt: [] });
    for (const argv of [['bot', 'maybe'], ['bot', 'on', '--challenge', 'captcha'], ['bot', '--challenge', 'js']]) {
      const bad = await withSite();
      expect(await runCli(['--site', 'shop.example.test', 'protect', ...argv], bad.deps), argv.join(' ')).toBe(2);
      expect(bad.admin.bots.size).toBe(0);
    }
  });

  it('passes daemon refusals through in the one error format (exit 1)', async () => {
    const h = await withSite();
    expect(await runCli(['--site', 'shop.example.test', 'protect', 'page', 'remove', '/never'], h.deps)).toBe(1);
    expect(h.io.err()).toBe('error: not_found: /never is not protected on shop.example.test\n');
  });
});

describe('wafctl site set (protection settings)', () => {
  it('sends every setting in one change', async () => {
    const h = await withSite();
    const updates: unknown[] = [];
    const original = h.admin.updateSite.bind(h.admin);
    h.admin.updateSite = async (domain, changes) => { updates.push(changes); return original(domain, {}); };
    expect(await runCli(['site', 'set', 'shop.example.test', '--mode', 'detect', '--paranoia', '2', '--inbound-threshold', '10', '--outbound-threshold', '8',
      '--group', 'cms=off', '--group', 'crs=on', '--block-response', 'drop', '--no-default', '--on-engine-error', 'open', '--body-over-limit', 'pass', '--response-inspection', 'off', '--generated-tls'], h.deps)).toBe(0);
    expect(updates).toEqual([{
      mode: 'detect', paranoia: 2, inbound_threshold: 10, outbound_threshold: 8, groups: { cms: false, crs: true }, block_response: 'drop',
      is_default: false, tls: null, on_engine_error: 'open', body_over_limit: 'pass', response_inspection: 'off',
    }]);
  });

  it('reads --tls-cert and --tls-key and sends their text', async () => {
    const h = await withSite();
    h.files.inputs.set('/certs/site.crt', '-----BEGIN CERTIFICATE-----\nX\n-----END CERTIFICATE-----\n');
    h.files.inputs.set('/certs/site.key', '-----BEGIN PRIVATE KEY-----\nY\n-----END PRIVATE KEY-----\n');
    const updates: unknown[] = [];
    h.admin.updateSite = async (_d, changes) => { updates.push(changes); return h.admin.sites[0]; };
    expect(await runCli(['site', 'set', 'shop.example.test', '--tls-cert', '/certs/site.crt', '--tls-key', '/certs/site.key', '--default'], h.deps)).toBe(0);
    expect(updates).toEqual([{ is_default: true, tls: { cert: h.files.inputs.get('/certs/site.crt'), key: h.files.inputs.get('/certs/site.key') } }]);
  });

  it('refuses contradictions and bad values before calling the daemon', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--paranoia', '0'], /must be 1, 2, 3 or 4/],
      [['--mode', 'block'], /Allowed choices are on, detect, off/],
      [['--group', 'waf=off'], /crs=on\|off or cms=on\|off/],
      [['--group', 'cms=on', '--group', 'cms=off'], /contradict/],
      [['--tls-cert', '/a.crt'], /--tls-cert and --tls-key go together/],
      [['--tls-cert', '/a', '--tls-key', '/b', '--generated-tls'], /contradict/],
      [['--inbound-threshold', 'ten'], /whole number/],
      [[], /nothing to change/],
    ];
    for (const [args, message] of cases) {
      const h = await withSite();
      let called = false;
      h.admin.updateSite = async () => { called = true; return h.admin.sites[0]; };
      expect(await runCli(['site', 'set', 'shop.example.test', ...args], h.deps), args.join(' ')).toBe(2);
      expect(h.io.err(), args.join(' ')).toMatch(message);
      expect(called).toBe(false);
    }
  });

  it('a missing certificate file is a clear error (exit 1) and nothing is sent', async () => {
    const h = await withSite();
    let called = false;
    h.admin.updateSite = async () => { called = true; return h.admin.sites[0]; };
    expect(await runCli(['site', 'set', 'shop.example.test', '--tls-cert', '/none.crt', '--tls-key', '/none.key'], h.deps)).toBe(1);
    expect(h.io.err()).toBe('error: file_not_found: --tls-cert: no such file: /none.crt\n');
    expect(called).toBe(false);
  });
});

describe('wafctl rules', () => {
  it('set reads the files (absolute paths) and --no-after removes; show prints the fields', async () => {
    const h = await withSite();
    h.files.inputs.set('/r/after.conf', 'SecRule ARGS "@contains x" "id:1000001,phase:2,deny"\n');
    expect(await runCli(['--site', 'shop.example.test', 'rules', 'set', '--after', '/r/after.conf', '--no-before'], h.deps)).toBe(0);
    expect(h.admin.rulesSet).toEqual([{ domain: 'shop.example.test', files: { before: null, after: { path: '/r/after.conf', text: h.files.inputs.get('/r/after.conf') } } }]);
    expect(h.io.out()).toMatch(/after crs\s+\/r\/after\.conf/);
    const show = harness();
    show.admin.sites = h.admin.sites;
    show.admin.rulesSet = h.admin.rulesSet;
    expect(await runCli(['--site', 'shop.example.test', 'rules', 'show'], show.deps)).toBe(0);
    expect(show.io.out()).toMatch(/loads\s+yes, 600 rules/);
  });

  it('set with nothing to change, or a file that is not there, changes nothing', async () => {
    const h = await withSite();
    expect(await runCli(['--site', 'shop.example.test', 'rules', 'set'], h.deps)).toBe(2);
    expect(await runCli(['--site', 'shop.example.test', 'rules', 'set', '--before', '/r/none.conf'], h.deps)).toBe(1);
    expect(h.io.err()).toContain('error: file_not_found: --before: no such file: /r/none.conf');
    expect(h.admin.rulesSet).toEqual([]);
  });
});

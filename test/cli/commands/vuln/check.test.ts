// wafctl vuln check through the real commander tree. The management API client is a stand-in
// whose answers come from the real vulndb module over the sample feed (the HTTPS path itself is
// exercised by test/e2e/vulndb.test.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../../cli/run.js';
import { ExitCode } from '../../../../cli/exit-codes.js';
import { VULNERABILITIES_FOUND_EXIT } from '../../../../cli/vuln/fail-on.js';
import { VulnDb } from '../../../../daemon/vulndb/vulndb.js';
import { ApiError } from '../../../../shared/api-client/index.js';
import { WafctlError } from '../../../../shared/errors.js';
import { ID, SAMPLE_FEED } from '../../../daemon/vulndb/helpers.js';
import { harness } from '../../fakes.js';

const KEY = 'K'.repeat(64);
let dir: string;
let db: VulnDb;
let empty: VulnDb;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wafctl-vuln-check-'));
  db = await VulnDb.open(join(dir, 'db'));
  await db.import(SAMPLE_FEED);
  empty = await VulnDb.open(join(dir, 'empty'));
});

afterAll(async () => {
  db.close();
  empty.close();
  await rm(dir, { recursive: true, force: true });
});

/** A harness logged in through the environment, whose API answers checks from `from`. */
function checking(from: VulnDb = db, ioOptions: { isTTY?: boolean } = {}) {
  const h = harness({ WAFCTL_SERVER: 'https://127.0.0.1:9443', WAFCTL_KEY: KEY }, ioOptions);
  const sent: Array<{ method: string; path: string; body: unknown; key?: string }> = [];
  h.deps.apiClient = async (options) =>
    ({
      async request(method: string, path: string, opts: { body?: unknown } = {}) {
        sent.push({ method, path, body: opts.body, key: options.key });
        try {
          const body = await from.checkBody(JSON.parse(JSON.stringify(opts.body)), new Date('2026-11-22T06:00:00Z'));
          return { body, data: undefined, status: 200 };
        } catch (error) {
          if (error instanceof WafctlError) throw new ApiError(error.code, error.message, { status: error.status });
          throw error;
        }
      },
    }) as never;
  return { h, sent };
}

describe('vuln check', () => {
  it('sends the flags as a check body with the site key and prints the table grouped by component', async () => {
    const { h, sent } = checking();
    const code = await runCli(['vuln', 'check', '--cms-version', '6.4.1', '--plugin', 'contact-form-7@5.3.1', '--plugin', 'akismet@5.3.1', '--theme', 'astra@4.6.8'], h.deps);
    expect(code, h.io.err()).toBe(0);
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/wp/vulnerabilities/check',
        key: KEY,
        body: { cms_version: '6.4.1', plugins: [{ slug: 'contact-form-7', version: '5.3.1' }, { slug: 'akismet', version: '5.3.1' }], themes: [{ slug: 'astra', version: '4.6.8' }] },
      },
    ]);
    const out = h.io.out();
    expect(out).toMatch(/^WordPress core 6\.4\.1 {2}2 vulnerabilities$/m);
    expect(out).toMatch(/^Plugin contact-form-7 5\.3\.1 {2}2 vulnerabilities$/m);
    expect(out).toMatch(/^Plugin akismet 5\.3\.1 {2}no known vulnerabilities$/m);
    expect(out).toMatch(/^Theme astra 4\.6\.8 {2}1 vulnerability$/m);
    expect(out).toMatch(/^ {2}CRITICAL 10\.0 {2}/m);
    expect(out).toContain(`https://www.wordfence.com/threat-intel/vulnerabilities/id/${ID['cf7-file-upload']}`);
    // Groups in order: core, then the plugins, then the theme, then the summary and attribution last.
    const order = ['WordPress core', 'Plugin contact-form-7', 'Plugin akismet', 'Theme astra', 'Summary:', 'Vulnerability data: Wordfence Intelligence'].map((s) => out.indexOf(s));
    expect(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1])), order.join(',')).toBe(true);
    expect(out).toMatch(/Summary: 5 vulnerabilities \(1 critical, 2 high, 2 medium, 0 low\)/);
    expect(out).toMatch(/Defiant/);
    expect(h.io.err()).toBe('');
  });

  it('colours severities on a terminal only', async () => {
    const tty = checking(db, { isTTY: true });
    expect(await runCli(['vuln', 'check', '--cms-version', '5.8.2'], tty.h.deps)).toBe(0);
    expect(tty.h.io.out()).toContain('\x1b[31m'); // red: high and critical
    const pipe = checking();
    expect(await runCli(['vuln', 'check', '--cms-version', '5.8.2'], pipe.h.deps)).toBe(0);
    expect(pipe.h.io.out()).not.toContain('\x1b[');
  });

  it('--json prints the response exactly as the server sent it', async () => {
    const { h } = checking();
    expect(await runCli(['--json', 'vuln', 'check', '--cms-version', '6.5.1', '--plugin', 'wordpress-seo@22.10'], h.deps)).toBe(0);
    const printed = JSON.parse(h.io.out());
    const direct = await db.checkBody({ cms_version: '6.5.1', plugins: [{ slug: 'wordpress-seo', version: '22.10' }], themes: [] }, new Date('2026-11-22T06:00:00Z'));
    expect(printed).toEqual(JSON.parse(JSON.stringify(direct)));
    expect(printed.cms.vulnerabilities.map((v: { id: string }) => v.id)).toEqual([ID['core-block-xss']]);
  });

  it('--fail-on high exits 3 when a high or critical one is found, 0 when only lower ones are', async () => {
    const found = checking();
    expect(await runCli(['vuln', 'check', '--cms-version', '6.6', '--plugin', 'contact-form-7@5.3.1', '--fail-on', 'high'], found.h.deps)).toBe(3);
    expect(ExitCode.vulnerable).toBe(VULNERABILITIES_FOUND_EXIT);
    expect(found.h.io.err()).toBe('2 vulnerabilities at or above --fail-on high\n');
    expect(found.h.io.out()).toContain('Plugin contact-form-7 5.3.1');

    const lower = checking();
    expect(await runCli(['vuln', 'check', '--cms-version', '6.6', '--theme', 'astra@4.6.8', '--fail-on', 'high'], lower.h.deps)).toBe(0);
    const medium = checking();
    expect(await runCli(['vuln', 'check', '--cms-version', '6.6', '--theme', 'astra@4.6.8', '--fail-on', 'MEDIUM'], medium.h.deps)).toBe(3);
  });

  it('informational records are shown but never fail the gate', async () => {
    const { h } = checking();
    expect(await runCli(['vuln', 'check', '--cms-version', '6.6', '--plugin', 'legacy-slider-pro@3.4.3', '--fail-on', 'any'], h.deps)).toBe(0);
    expect(h.io.out()).toMatch(/^Plugin legacy-slider-pro 3\.4\.3 {2}0 vulnerabilities, 1 informational$/m);
    expect(h.io.out()).toMatch(/^ {2}INFO /m);
  });

  it('reads WP-CLI output; --cms-version overrides its core version and --plugin adds to it', async () => {
    const { h, sent } = checking();
    const wpCli = [
      'WordPress version: 6.4.1',
      "Database revision: 56657",
      '[{"name":"contact-form-7","status":"active","update":"available","version":"5.3.1"},{"name":"advanced-cache.php","status":"dropin","update":"none","version":""},{"name":"hello","status":"inactive","update":"none","version":""}]',
      '[{"name":"astra","status":"active","update":"none","version":"4.6.8"}]',
    ].join('\n');
    h.files.inputs.set('-', wpCli);
    expect(await runCli(['vuln', 'check', '--from-wp-cli', '-', '--cms-version', '6.5.1', '--plugin', 'elementor@3.18.0'], h.deps)).toBe(0);
    expect(sent[0].body).toEqual({
      cms_version: '6.5.1',
      plugins: [{ slug: 'contact-form-7', version: '5.3.1' }, { slug: 'elementor', version: '3.18.0' }],
      themes: [{ slug: 'astra', version: '4.6.8' }],
    });
    expect(h.io.err()).toBe('warning: plugin hello has no version and was not checked\n');
  });

  it('no database on the daemon: prints the empty result, the message, exit 1 (nothing was checked)', async () => {
    const { h } = checking(empty);
    expect(await runCli(['vuln', 'check', '--cms-version', '6.4.1'], h.deps)).toBe(1);
    expect(h.io.out()).toContain('WordPress core 6.4.1  no known vulnerabilities');
    expect(h.io.err()).toMatch(/^warning: .*no .*database/im);
    expect(h.io.err()).toMatch(/^error: no_database: .*\nhint: import it with `wafctl vulndb import/m);
  });

  it('bad input is refused before any request: usage errors exit 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['vuln', 'check'], /--cms-version VERSION/],
      [['vuln', 'check', '--cms-version', '6.4', '--plugin', 'contact-form-7'], /--plugin "contact-form-7": expected SLUG@VERSION/],
      [['vuln', 'check', '--cms-version', '6.4', '--theme', '@4.1'], /--theme "@4.1": expected SLUG@VERSION/],
      [['vuln', 'check', '--cms-version', ' '], /--cms-version: must not be empty/],
      [['vuln', 'check', '--cms-version', '6.4', '--plugin', `${'a'.repeat(65)}@1.0`], /plugins\.0\.slug: must be at most 64 characters/],
      [['vuln', 'check', '--cms-version', '6.4', '--fail-on', 'severe'], /must be one of none, any, low, medium, high, critical/],
    ];
    for (const [argv, message] of cases) {
      const { h, sent } = checking();
      expect(await runCli(argv, h.deps), argv.join(' ')).toBe(2);
      expect(h.io.err(), argv.join(' ')).toMatch(message);
      expect(sent, argv.join(' ')).toEqual([]);
    }
    const many = checking();
    const plugins = Array.from({ length: 501 }, (_, i) => ['--plugin', `p${i}@1.0`]).flat();
    expect(await runCli(['vuln', 'check', '--cms-version', '6.4', ...plugins], many.h.deps)).toBe(2);
    expect(many.h.io.err()).toMatch(/at most 500 plugins/);
  });

  it('bad or missing WP-CLI input: exit 1 with the reason, nothing sent', async () => {
    const cut = checking();
    cut.h.files.inputs.set('site.txt', 'WordPress version: 6.4.1\n[{"name":"akismet","version":"5.3"');
    expect(await runCli(['vuln', 'check', '--from-wp-cli', 'site.txt'], cut.h.deps)).toBe(1);
    expect(cut.h.io.err()).toMatch(/^error: invalid_input: --from-wp-cli: a JSON list starting at character \d+ never closes/);
    expect(cut.sent).toEqual([]);
    const missing = checking();
    expect(await runCli(['vuln', 'check', '--from-wp-cli', 'none.txt'], missing.h.deps)).toBe(1);
    expect(missing.h.io.err()).toBe('error: file_not_found: --from-wp-cli: no such file: none.txt\n');
  });

  it('not logged in: exit 4 with the login hint', async () => {
    const h = harness();
    expect(await runCli(['vuln', 'check', '--cms-version', '6.4.1'], h.deps)).toBe(4);
    expect(h.io.err()).toMatch(/^error: not_logged_in: .*\nhint: run `wafctl login/);
  });

  it('an answer of the wrong shape is reported, not printed', async () => {
    const h = harness({ WAFCTL_SERVER: 'https://127.0.0.1:9443', WAFCTL_KEY: KEY });
    h.deps.apiClient = async () => ({ request: async () => ({ body: { success: true, data: [] }, data: [], status: 200 }) }) as never;
    expect(await runCli(['vuln', 'check', '--cms-version', '6.4.1'], h.deps)).toBe(1);
    expect(h.io.err()).toMatch(/^error: bad_response: the check answer does not have the expected shape/);
    expect(h.io.out()).toBe('');
  });
});

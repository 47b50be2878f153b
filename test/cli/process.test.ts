// The built wafctl binary as a real process (npm test builds dist/ first; run `npm run build`
// before running vitest directly). No daemon runs in these tests.
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, runWafctl, sandbox } from './cli-process.js';

const KEY = 'a1B2'.repeat(16);

describe('wafctl as a process, no daemon running', () => {
  it.each([['daemon', 'status'], ['site', 'list', '--json'], ['daemon', 'reload'], ['token', 'list']])(
    '`wafctl %s %s` exits 4 with the hint to start the daemon',
    async (...argv) => {
      const box = sandbox();
      const result = await runWafctl(argv, box.env);
      expect(result.code).toBe(4);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(new RegExp(`^error: daemon_unreachable: cannot reach the wafctl daemon at ${box.dataDir}/wafctl\\.sock`));
      expect(result.stderr).toContain('hint: is it running? try `wafctl daemon start`');
    },
  );

  it('bad usage exits 2: unknown command (with the nearest name) and a missing argument', async () => {
    const box = sandbox();
    const unknown = await runWafctl(['sitee', 'list'], box.env);
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toBe("error: usage_error: unknown command 'sitee'\nhint: did you mean site? see `wafctl --help`\n");
    const missing = await runWafctl(['site', 'add', 'example.test'], box.env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("error: usage_error: required option '--origin <url>' not specified");
  });

  it('--version prints the package version', async () => {
    const pkg = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8'));
    const result = await runWafctl(['--version'], sandbox().env);
    expect(result).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  // A saved profile (0600, checked against a real daemon first): test/e2e/login-checks-key.test.ts.
  it('login with a malformed key saves nothing', async () => {
    const box = sandbox();
    const bad = await runWafctl(['login', '--site', 'example.test', '--key', 'nope', '--server', 'https://127.0.0.1:9443'], box.env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('error: invalid_api_key_format:');
    await expect(stat(join(box.configHome, 'wafctl', 'config.json'))).rejects.toThrow(/ENOENT/);
  });

  it('login without --server needs a running daemon and says so (exit 2)', async () => {
    const result = await runWafctl(['login', '--site', 'example.test', '--key', KEY], sandbox().env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: usage_error: no --server given and no local daemon to ask/);
  });

  it('a site with no login profile is named, with the profiles there are (not "no server")', async () => {
    const box = sandbox();
    await mkdir(join(box.configHome, 'wafctl'), { recursive: true });
    const profile = { server: 'https://127.0.0.1:9443', key: KEY };
    const file = { version: 1, current: 'blog.test', profiles: { 'demo.localhost': profile, 'blog.test': profile } };
    await writeFile(join(box.configHome, 'wafctl', 'config.json'), JSON.stringify(file), { mode: 0o600 });
    const result = await runWafctl(['--site', 'nosuch.test', 'logs'], box.env);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'error: not_logged_in: no login profile for nosuch.test (profiles: demo.localhost, blog.test)\n' +
        'hint: check the site name, or log in to it with `wafctl login --site nosuch.test --key KEY` (or `wafctl site key nosuch.test --regenerate` on the daemon\'s machine)\n',
    );
    const none = await runWafctl(['logs'], { ...sandbox().env, WAFCTL_SITE: 'nosuch.test' });
    expect(none.stderr).toMatch(/^error: not_logged_in: no login profile for nosuch\.test \(no profiles saved yet\)\n/);
  });

  it('vuln check --cms-version banana is a usage error (exit 2) before any network call', async () => {
    const result = await runWafctl(['vuln', 'check', '--cms-version', 'banana'], sandbox().env);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: usage_error: --cms-version banana: not a WordPress version (they look like 6.4.2, 6.5-RC1 or 6.6-beta2)\n' +
        'hint: on the WordPress host, `wp core version` prints it (or pass `--from-wp-cli FILE`)\n',
    });
  });

  it("man wafctl-ingest's example entries are accepted as they are (ingest --dry-run)", async () => {
    const man = await readFile(join(REPO, 'man', 'wafctl-ingest.1'), 'utf8');
    const examples = man.split('\n').filter((line) => line.startsWith('{"timestamp')).map((line) => line.replace(/\\-/g, '-'));
    expect(examples).toHaveLength(2);
    const box = sandbox();
    for (const [kind, line] of [['waf', examples[0]], ['access', examples[1]]]) {
      const file = join(box.home, `${kind}.ndjson`);
      await writeFile(file, line + '\n');
      const result = await runWafctl(['ingest', kind, file, '--dry-run'], box.env);
      expect(result, kind).toMatchObject({ code: 0, stderr: '1 read, 1 validated, 1 accepted, 0 rejected, 0 retried\n' });
    }
  });
});

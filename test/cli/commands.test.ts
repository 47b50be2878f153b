// Every command through the real commander tree, with an in-memory daemon.
import { readFile, stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run.js';
import { buildProgram } from '../../cli/program.js';
import { OPTION_ROWS } from '../../daemon/options/option-table.js';
import { harness, STATUS } from './fakes.js';

const KEY = 'Z'.repeat(64);

describe('usage errors exit 2 in the one error format', () => {
  it('unknown command, with the nearest name', async () => {
    const h = harness();
    expect(await runCli(['sitee', 'list'], h.deps)).toBe(2);
    expect(h.io.err()).toBe("error: usage_error: unknown command 'sitee'\nhint: did you mean site? see `wafctl --help`\n");
  });

  it('unknown verb, missing argument, missing required option, unknown plan, bad port', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['site', 'ad', 'x.example'], /unknown command 'ad'[\s\S]*did you mean add\?/],
      [['site', 'show'], /missing required argument 'domain'/],
      [['site', 'add', 'x.example'], /required option '--origin <url>' not specified[\s\S]*wafctl site add --help/],
      [['site', 'add', 'x.example', '--origin', 'http://o', '--plan', 'gold'], /Allowed choices are free, advanced, enterprise/],
      [['daemon', 'start', '--api-port', '99999'], /must be a port number/],
      [['token', 'revoke', 'abc'], /whole number/],
      [['site', 'list', 'extra'], /too many arguments/],
    ];
    for (const [argv, message] of cases) {
      const h = harness();
      expect(await runCli(argv, h.deps), argv.join(' ')).toBe(2);
      expect(h.io.err(), argv.join(' ')).toMatch(/^error: usage_error: /);
      expect(h.io.err(), argv.join(' ')).toMatch(message);
      expect(h.admin.sites, 'nothing changed').toEqual([]);
    }
  });

  it('a group without a verb shows its help on stderr and exits 2', async () => {
    const h = harness();
    expect(await runCli(['site'], h.deps)).toBe(2);
    expect(h.io.err()).toContain('Usage: wafctl site');
  });

  it('--help and --version exit 0 on stdout', async () => {
    const h = harness();
    expect(await runCli(['--version'], h.deps)).toBe(0);
    expect(h.io.out()).toBe('9.9.9-test\n');
    const h2 = harness();
    expect(await runCli(['site', 'add', '--help'], h2.deps)).toBe(0);
    expect(h2.io.out()).toContain('wafctl site add example.com --origin');
  });
});

describe('no daemon', () => {
  it('exits 4 with a hint to start it', async () => {
    const h = harness();
    h.admin.running = false;
    expect(await runCli(['site', 'list'], h.deps)).toBe(4);
    expect(h.io.err()).toMatch(/^error: daemon_unreachable: .*\nhint: is it running\? try `wafctl daemon start`/);
    expect(h.io.out()).toBe('');
  });
});

describe('site', () => {
  it('add where the login profile cannot be written: the site is added and its key printed, then login_not_saved with a hint', async () => {
    const h = harness();
    h.deps.profiles.save = async () => { throw Object.assign(new Error("EACCES: permission denied, open '/home/x/.config/wafctl/config.json'"), { code: 'EACCES' }); };
    expect(await runCli(['site', 'add', 'example.test', '--origin', 'http://127.0.0.1:8081'], h.deps)).toBe(1);
    expect(h.admin.sites.map((s) => s.domain)).toEqual(['example.test']);
    expect(h.io.out()).toMatch(/api_key\s+\S{16,}/);
    expect(h.io.err()).toMatch(/^error: login_not_saved: the key was not saved as the login profile for example\.test: EACCES/m);
    expect(h.io.err()).toMatch(/^hint: the change itself is done .*--no-login/m);
    expect(h.io.err()).not.toContain('internal_error');
  });

  it('add --json prints exactly {site_id, domain, api_key} and saves the login profile', async () => {
    const h = harness();
    expect(await runCli(['site', 'add', 'example.test', '--origin', 'http://127.0.0.1:8081', '--json'], h.deps)).toBe(0);
    const printed = JSON.parse(h.io.out());
    expect(Object.keys(printed)).toEqual(['site_id', 'domain', 'api_key']);
    expect(printed).toMatchObject({ site_id: 1, domain: 'example.test' });
    const profiles = await h.deps.profiles.load();
    expect(profiles.current).toBe('example.test');
    expect(profiles.profiles['example.test']).toEqual({ server: STATUS.api_url, key: printed.api_key, ca: STATUS.ca_file });
    expect((await stat(h.deps.profiles.path)).mode & 0o777).toBe(0o600);
  });

  it('add --no-login leaves the profile alone; aliases and plan pass through', async () => {
    const h = harness();
    const argv = ['site', 'add', 'example.test', '--origin', 'http://o.test', '--alias', 'www.example.test', '--alias', 'm.example.test', '--plan', 'advanced', '--no-login'];
    expect(await runCli(argv, h.deps)).toBe(0);
    expect(h.admin.sites[0]).toMatchObject({ aliases: ['www.example.test', 'm.example.test'], plan: 'advanced' });
    await expect(readFile(h.deps.profiles.path)).rejects.toThrow(/ENOENT/);
    expect(h.io.out()).toMatch(/api_key +k+1\n/);
  });

  it('a duplicate is refused with the daemon code and exit 1', async () => {
    const h = harness();
    await runCli(['site', 'add', 'example.test', '--origin', 'http://o.test', '--no-login'], h.deps);
    const before = JSON.stringify(h.admin.sites);
    expect(await runCli(['site', 'add', 'example.test', '--origin', 'http://o.test'], h.deps)).toBe(1);
    expect(h.io.err()).toContain('error: duplicate: site example.test already exists');
    expect(JSON.stringify(h.admin.sites)).toBe(before);
  });

  it('list prints a table, [] with --json when empty, and reads the --data-dir given', async () => {
    const h = harness();
    expect(await runCli(['--json', '--data-dir', '/srv/waf', 'site', 'list'], h.deps)).toBe(0);
    expect(h.io.out()).toBe('[]\n');
    expect(h.adminDataDirs).toEqual(['/srv/waf']);
    await runCli(['site', 'add', 'a.example', '--origin', 'http://o.test', '--no-login'], h.deps);
    const before = h.io.out().length;
    expect(await runCli(['site', 'list'], h.deps)).toBe(0);
    const table = h.io.out().slice(before).split('\n');
    expect(table[0]).toMatch(/^ID +DOMAIN +ORIGIN +PLAN +STATUS +KEY +ALIASES$/);
    expect(table[table.length - 2]).toMatch(/^ 1 +a\.example +http:\/\/o\.test +free +active +yes +-$/);
    expect(h.adminDataDirs.at(-1)).toBe('/default/data');
  });

  it('set, disable, enable, delete print the site (as JSON with --json)', async () => {
    const h = harness();
    await runCli(['site', 'add', 'a.example', '--origin', 'http://o.test', '--no-login'], h.deps);
    const offset = h.io.out().length;
    expect(await runCli(['site', 'set', 'a.example', '--plan', 'enterprise', '--clear-aliases', '--json'], h.deps)).toBe(0);
    for (const verb of ['disable', 'enable', 'delete']) expect(await runCli(['site', verb, 'a.example', '--json'], h.deps)).toBe(0);
    const printed = h.io.out().slice(offset).trim().split(/\n(?=\{)/).map((text) => JSON.parse(text));
    expect(printed.map((s) => s.status)).toEqual(['active', 'inactive', 'active', 'deleted']);
    expect(printed[0]).toMatchObject({ plan: 'enterprise', aliases: [] });
  });

  it('set with nothing to change, or contradicting itself, is a usage error', async () => {
    const h = harness();
    expect(await runCli(['site', 'set', 'a.example'], h.deps)).toBe(2);
    expect(await runCli(['site', 'set', 'a.example', '--alias', 'b.example', '--clear-aliases'], h.deps)).toBe(2);
  });

  it('key refuses to replace an existing key without --regenerate', async () => {
    const h = harness();
    await runCli(['site', 'add', 'a.example', '--origin', 'http://o.test', '--no-login'], h.deps);
    expect(await runCli(['site', 'key', 'a.example'], h.deps)).toBe(1);
    expect(h.io.err()).toContain('error: key_exists:');
    expect(h.io.err()).toContain('hint: replace it with `wafctl site key a.example --regenerate`');
  });

  it('key --regenerate --json prints exactly {api_key} and updates the login profile', async () => {
    const h = harness();
    await runCli(['site', 'add', 'a.example', '--origin', 'http://o.test', '--json'], h.deps);
    const first = JSON.parse(h.io.out()).api_key;
    const offset = h.io.out().length;
    expect(await runCli(['site', 'key', 'a.example', '--regenerate', '--json'], h.deps)).toBe(0);
    const printed = JSON.parse(h.io.out().slice(offset));
    expect(Object.keys(printed)).toEqual(['api_key']);
    expect(printed.api_key).not.toBe(first);
    expect((await h.deps.profiles.load()).profiles['a.example'].key).toBe(printed.api_key);
  });
});

describe('token and account', () => {
  it('token create --json prints exactly {id, token}; list and revoke', async () => {
    const h = harness();
    expect(await runCli(['token', 'create', 'vector', '--json'], h.deps)).toBe(0);
    expect(Object.keys(JSON.parse(h.io.out()))).toEqual(['id', 'token']);
    const h2 = harness();
    h2.admin.tokens = h.admin.tokens;
    expect(await runCli(['token', 'list', '--json'], h2.deps)).toBe(0);
    expect(JSON.parse(h2.io.out())).toEqual([{ id: 1, name: 'vector', created_at: '2026-11-22T05:00:00.000Z', last_used_at: null }]);
    expect(await runCli(['token', 'revoke', '1'], h2.deps)).toBe(0);
    expect(await runCli(['token', 'revoke', '1'], h2.deps)).toBe(1);
    expect(h2.io.err()).toContain('error: not_found: no token 1');
  });

  it('account api-access on|off sets it; without an argument shows it; anything else is usage', async () => {
    const h = harness();
    expect(await runCli(['account', 'api-access', 'on'], h.deps)).toBe(0);
    expect(h.admin.apiAccess).toBe(true);
    expect(await runCli(['account', 'api-access', '--json'], h.deps)).toBe(0);
    expect(JSON.parse(h.io.out().slice(h.io.out().indexOf('{')))).toEqual({ id: 1, name: 'default', api_access: true });
    expect(await runCli(['account', 'api-access', 'maybe'], h.deps)).toBe(2);
    expect(h.admin.apiAccess).toBe(true);
  });
});

describe('login', () => {
  // Saving a profile needs a key the server accepts: test/e2e/login-checks-key.test.ts, with a real daemon.
  it('refuses bad input and saves nothing', async () => {
    const cases: Array<[string[], number, RegExp]> = [
      [['login', '--key', KEY], 2, /login needs --site/],
      [['login', '--site', 'a.example'], 2, /login needs --key/],
      [['login', '--site', 'a.example', '--key', 'short'], 1, /invalid_api_key_format/],
      [['login', '--site', 'a.example', '--key', KEY, '--server', 'http://plain:9443'], 1, /must be an https:\/\/ URL/],
      [['login', '--site', 'a.example', '--key', KEY, '--server', 'https://s:1', '--ca', '/missing.pem'], 1, /invalid_ca/],
    ];
    for (const [argv, code, message] of cases) {
      const h = harness();
      expect(await runCli(argv, h.deps), argv.join(' ')).toBe(code);
      expect(h.io.err()).toMatch(message);
      await expect(readFile(h.deps.profiles.path), argv.join(' ')).rejects.toThrow(/ENOENT/);
    }
  });
});

describe('daemon', () => {
  it('start passes every flag through with absolute paths and prints the status', async () => {
    const h = harness();
    const argv = ['--data-dir', 'rel/data', 'daemon', 'start', '--edge-port', '0', '--edge-tls-port', '18443', '--api-port', '19443', '--admin-socket', 's.sock', '--crs-dir', '/crs', '--audit-log', 'audit.jsonl', '--workers', '2', '--tls-cert', 'c.pem', '--tls-key', 'k.pem', '--demo', '--demo-port', '0', '--listen-host', '::1'];
    expect(await runCli(argv, h.deps)).toBe(0);
    const call = h.daemon.calls[0];
    const cwd = process.cwd();
    expect(call.argv).toEqual([
      '--data-dir', `${cwd}/rel/data`, '--edge-port', '0', '--edge-tls-port', '18443', '--api-port', '19443', '--admin-socket', `${cwd}/s.sock`,
      '--crs-dir', '/crs', '--audit-log', `${cwd}/audit.jsonl`, '--workers', '2', '--tls-cert', `${cwd}/c.pem`, '--tls-key', `${cwd}/k.pem`, '--listen-host', '::1', '--demo-port', '0', '--demo',
    ]);
    expect(h.io.out()).toMatch(/api_url +https:\/\/127\.0\.0\.1:9443/);
    expect(h.io.out()).toMatch(/uptime +1h 2m 5s/);
  });

  it('start takes every setting of the daemon option table as a flag and passes it through', async () => {
    const h = harness();
    const argv = ['daemon', 'start', '--trusted-proxy', '10.0.0.0/8', '--trusted-proxy', '::1', '--edge-header-timeout-ms', '5000', '--edge-max-uri-bytes', '100', '--ingest-rate-limit', '600', '--vulndb-refresh-hours', '6'];
    expect(await runCli(argv, h.deps)).toBe(0);
    expect(h.daemon.calls[0].argv).toEqual([
      '--data-dir', '/default/data', '--trusted-proxy', '10.0.0.0/8', '--trusted-proxy', '::1', '--ingest-rate-limit', '600', '--vulndb-refresh-hours', '6',
      '--edge-header-timeout-ms', '5000', '--edge-max-uri-bytes', '100',
    ]);
    const start = buildProgram(h.deps).commands.find((c) => c.name() === 'daemon')!.commands.find((c) => c.name() === 'start')!;
    const flags = new Set(start.options.map((o) => o.long));
    for (const row of OPTION_ROWS) expect(flags, row.flag).toContain(`--${row.flag}`);
  });

  it('start --demo prints the daemon\'s curl lines', async () => {
    const h = harness();
    h.daemon.startResult = { ok: true, status: { ...STATUS, demo: { domain: 'demo.localhost', origin: 'http://127.0.0.1:1', try: ['curl -H "Host: demo.localhost" http://127.0.0.1:8080/', 'b', 'c'] } } };
    expect(await runCli(['daemon', 'start', '--demo'], h.deps)).toBe(0);
    expect(h.io.out()).toContain('  curl -H "Host: demo.localhost" http://127.0.0.1:8080/\n  b\n  c\n');
  });

  it('start says it is starting only to a terminal', async () => {
    const tty = harness({}, { isTTY: true, columns: 100 });
    await runCli(['daemon', 'start'], tty.deps);
    expect(tty.io.err()).toContain('starting the wafctl daemon on /default/data');
    const pipe = harness();
    await runCli(['daemon', 'start'], pipe.deps);
    expect(pipe.io.err()).not.toContain('starting the wafctl daemon');
  });

  it('start failure exits 1 with the daemon\'s one-line reason', async () => {
    const h = harness();
    h.daemon.startResult = { ok: false, reason: 'port 8080 (edge) is already in use' };
    expect(await runCli(['daemon', 'start'], h.deps)).toBe(1);
    expect(h.io.err()).toBe('error: daemon_start_failed: port 8080 (edge) is already in use\n');
  });

  it('--tls-cert without --tls-key is a usage error and starts nothing', async () => {
    const h = harness();
    expect(await runCli(['daemon', 'start', '--tls-cert', 'c.pem'], h.deps)).toBe(2);
    expect(h.daemon.calls).toEqual([]);
  });

  it('--foreground hands over and returns the daemon exit code', async () => {
    const h = harness();
    h.daemon.foregroundCode = 3;
    expect(await runCli(['daemon', 'start', '--foreground'], h.deps)).toBe(3);
    expect(h.daemon.calls[0]).toMatchObject({ verb: 'foreground', argv: ['--data-dir', '/default/data', '--foreground'] });
  });

  it('stop when nothing runs exits 4; status and reload print JSON', async () => {
    const h = harness();
    h.daemon.stopResult = { ok: false, reason: 'no daemon is running on /default/data', notRunning: true };
    expect(await runCli(['daemon', 'stop'], h.deps)).toBe(4);
    const h2 = harness();
    expect(await runCli(['daemon', 'status', '--json'], h2.deps)).toBe(0);
    expect(JSON.parse(h2.io.out())).toEqual(STATUS);
    const h3 = harness();
    expect(await runCli(['daemon', 'reload', '--json'], h3.deps)).toBe(0);
    expect(JSON.parse(h3.io.out())).toEqual({ reloaded: true });
  });
});

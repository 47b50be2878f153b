// End to end: the real daemon, started through `wafctl daemon start` on free ports in a
// temporary data dir; sites, keys, tokens through the CLI binary; stop and start again; and every
// bad input refused with a clear message and nothing changed.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWafctl, type CliResult } from '../cli/cli-process.js';
import { newSandbox, quickStartFlags, stopAll, type E2eDaemon } from './daemon-harness.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const KEY_SHAPE = /^[A-Za-z0-9]{64}$/;

interface Status {
  pid: number;
  ports: { edge: number; edge_tls: number; api: number };
  api_url: string;
  ca_file: string | null;
  data_dir: string;
  sites: number;
}

async function json<T>(d: E2eDaemon, ...args: string[]): Promise<T> {
  const result = await d.wafctl('--json', ...args);
  if (result.code !== 0) throw new Error(`wafctl ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

function get(url: string, host?: string): Promise<{ status?: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: host ? { host } : {} }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const configOf = (d: E2eDaemon) => join(d.box.dataDir, 'config.json');

/** A daemon started in a fresh sandbox; the start's own result, for the tests that judge it. */
async function startedDaemon(...extra: string[]): Promise<{ d: E2eDaemon; flags: string[]; started: CliResult }> {
  const d = await newSandbox();
  const flags = await quickStartFlags(d.box);
  const started = await d.wafctl('daemon', 'start', ...flags, ...extra);
  return { d, flags, started };
}

afterAll(stopAll);

// Each step runs several CLI processes against a daemon on a shared 2-core machine: allow for load.
const SLOW = { timeout: 120_000 };

describe('wafctl daemon start, sites and keys, stop, start again', SLOW, () => {
  // One running daemon for the tests that only read it or each add their own site (their own
  // domain, so any order works); the stop-and-start-again story runs on daemons of its own.
  let main: E2eDaemon;
  let flags: string[];
  let started: CliResult;

  beforeAll(async () => {
    ({ d: main, flags, started } = await startedDaemon());
  }, 120_000);

  it('starts in the background and returns once ready', async () => {
    expect(started.code, started.stderr).toBe(0);
    expect(started.stderr).toContain('wafctl daemon started');
    const status = await json<Status>(main, 'daemon', 'status');
    expect(status.data_dir).toBe(main.box.dataDir);
    for (const port of Object.values(status.ports)) expect(port).toBeGreaterThan(0);
    expect(status.api_url).toBe(`https://127.0.0.1:${status.ports.api}`);
    expect(status.ca_file && existsSync(status.ca_file)).toBe(true);
  });

  it('runs the daemon under no V8 heap cap unless asked (WAFCTL_DAEMON_HEAP_MIB), and refuses a bad one before starting anything', async () => {
    const cmdlineOf = async (pid: number) => (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    const status = await json<Status>(main, 'daemon', 'status');
    expect((await cmdlineOf(status.pid)).some((arg) => arg.startsWith('--max-old-space-size'))).toBe(false);

    const d = await newSandbox();
    const flags = await quickStartFlags(d.box);
    const refused = await runWafctl(['daemon', 'start', ...flags], { ...d.box.env, WAFCTL_DAEMON_HEAP_MIB: '256M' });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('WAFCTL_DAEMON_HEAP_MIB must be a whole number of MiB');
    expect(existsSync(join(d.box.dataDir, 'wafctl.pid'))).toBe(false);
    const foreground = await runWafctl(['daemon', 'start', '--foreground', ...flags], { ...d.box.env, WAFCTL_DAEMON_HEAP_MIB: '8' });
    expect(foreground.code).not.toBe(0);
    expect(foreground.stderr).toContain('WAFCTL_DAEMON_HEAP_MIB must be 0 (no cap) or at least 64');

    const capped = await runWafctl(['daemon', 'start', ...flags], { ...d.box.env, WAFCTL_DAEMON_HEAP_MIB: '320' });
    expect(capped.code, capped.stderr).toBe(0);
    const cappedStatus = await json<Status>(d, 'daemon', 'status');
    expect(await cmdlineOf(cappedStatus.pid)).toContain('--max-old-space-size=320');
    expect((await d.wafctl('daemon', 'stop')).code).toBe(0);
  });

  it('answers plain HTTP on the API port with https_required', async () => {
    const status = await json<Status>(main, 'daemon', 'status');
    const answer = await get(`http://127.0.0.1:${status.ports.api}/api/v1/connect`);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ success: false, error: 'https_required' });
  });

  it('refuses a second daemon on the same data dir', async () => {
    const second = await main.wafctl('daemon', 'start', ...flags);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/^error: daemon_start_failed: .*already running/);
  });

  it('adds a site, shows its key once, keeps only its hash, saves the login profile', async () => {
    const added = await json<{ site_id: number; domain: string; api_key: string }>(main, 'site', 'add', 'example.test', '--origin', 'http://127.0.0.1:8081');
    expect(Object.keys(added)).toEqual(['site_id', 'domain', 'api_key']);
    expect(added.domain).toBe('example.test');
    expect(added.api_key).toMatch(KEY_SHAPE);
    const key = added.api_key;

    const config = await readFile(configOf(main), 'utf8');
    expect(config).not.toContain(key);
    expect(config).toContain(sha256(key));
    expect((await stat(configOf(main))).mode & 0o777).toBe(0o600);

    const status = await json<Status>(main, 'daemon', 'status');
    const profiles = JSON.parse(await readFile(join(main.box.configHome, 'wafctl', 'config.json'), 'utf8'));
    expect(profiles.current).toBe('example.test');
    expect(profiles.profiles['example.test']).toEqual({ server: status.api_url, key, ca: status.ca_file });

    const shown = await json<{ has_key: boolean; status: string }>(main, 'site', 'show', 'example.test');
    expect(shown).toMatchObject({ has_key: true, status: 'active' });
    expect(JSON.stringify(shown)).not.toContain(key);
  });

  it('will not replace the key without --regenerate; with it the old hash is gone', async () => {
    const firstKey = (await json<{ api_key: string }>(main, 'site', 'add', 'rekey.test', '--origin', 'http://127.0.0.1:8081')).api_key;
    const refused = await main.wafctl('site', 'key', 'rekey.test');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('error: key_exists:');

    const regenerated = await json<{ api_key: string }>(main, 'site', 'key', 'rekey.test', '--regenerate');
    expect(Object.keys(regenerated)).toEqual(['api_key']);
    expect(regenerated.api_key).toMatch(KEY_SHAPE);
    expect(regenerated.api_key).not.toBe(firstKey);
    const secondKey = regenerated.api_key;
    const config = await readFile(configOf(main), 'utf8');
    expect(config).not.toContain(sha256(firstKey));
    expect(config).toContain(sha256(secondKey));
    expect(config).not.toContain(secondKey);
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    // The duplicate case needs a site of its own to collide with.
    await json(main, 'site', 'add', 'taken.test', '--origin', 'http://127.0.0.1:8081');
    const before = await readFile(configOf(main), 'utf8');
    const cases: Array<[string[], number, RegExp]> = [
      [['site', 'add', 'not a domain', '--origin', 'http://127.0.0.1:8081'], 1, /^error: validation_error: .*domain/],
      [['site', 'add', 'bad-origin.test', '--origin', 'ftp://127.0.0.1'], 1, /^error: validation_error: .*origin.*http/],
      [['site', 'add', 'taken.test', '--origin', 'http://127.0.0.1:8081'], 1, /^error: duplicate: .*taken\.test/],
      [['site', 'add', 'plan.test', '--origin', 'http://127.0.0.1:8081', '--plan', 'gold'], 2, /^error: usage_error: .*gold.*free, advanced, enterprise/],
      [['site', 'show', 'missing.test'], 1, /^error: not_found: /],
    ];
    for (const [argv, code, message] of cases) {
      const result = await main.wafctl(...argv);
      expect(result.code, argv.join(' ')).toBe(code);
      expect(result.stderr, argv.join(' ')).toMatch(message);
      expect(result.stdout, argv.join(' ')).toBe('');
    }
    expect(await readFile(configOf(main), 'utf8')).toBe(before);
  });

  it('tokens and account API access through the CLI', async () => {
    const created = await json<{ id: number; token: string }>(main, 'token', 'create', 'vector-web-1');
    expect(Object.keys(created)).toEqual(['id', 'token']);
    expect(await readFile(configOf(main), 'utf8')).not.toContain(created.token);
    const listed = await json<Array<{ id: number; name: string }>>(main, 'token', 'list');
    expect(listed.map((t) => t.name)).toEqual(['vector-web-1']);
    expect((await json<{ api_access: boolean }>(main, 'account', 'api-access', 'on')).api_access).toBe(true);
    await json(main, 'token', 'revoke', String(created.id));
    expect(await json(main, 'token', 'list')).toEqual([]);
  });

  it('stops, and a stopped daemon is unreachable (exit 4)', async () => {
    const { d, started: up } = await startedDaemon();
    expect(up.code, up.stderr).toBe(0);
    const stopped = await d.wafctl('daemon', 'stop');
    expect(stopped.code, stopped.stderr).toBe(0);
    const status = await d.wafctl('daemon', 'status');
    expect(status.code).toBe(4);
    expect(status.stderr).toContain('hint: is it running? try `wafctl daemon start`');
  });

  it('starts again (with --demo) with everything still there, and prints curl lines for the demo', async () => {
    // What the first run leaves: a site whose key was regenerated, and API access on.
    const { d, flags: again, started: up } = await startedDaemon();
    expect(up.code, up.stderr).toBe(0);
    await json(d, 'site', 'add', 'example.test', '--origin', 'http://127.0.0.1:8081');
    const key = (await json<{ api_key: string }>(d, 'site', 'key', 'example.test', '--regenerate')).api_key;
    expect((await json<{ api_access: boolean }>(d, 'account', 'api-access', 'on')).api_access).toBe(true);
    const stopped = await d.wafctl('daemon', 'stop');
    expect(stopped.code, stopped.stderr).toBe(0);

    const started = await d.wafctl('daemon', 'start', ...again, '--demo');
    expect(started.code, started.stderr).toBe(0);
    const status = await json<Status & { demo: { domain: string; origin: string } }>(d, 'daemon', 'status');
    const curls = started.stdout.split('\n').filter((line) => line.trim().startsWith('curl '));
    expect(curls).toHaveLength(3);
    for (const line of curls) expect(line).toContain(`-H 'Host: demo.localhost' `);
    expect(curls[0]).toContain(`http://127.0.0.1:${status.ports.edge}/`);
    // The demo origin itself answers.
    expect((await get(`${status.demo.origin}/`)).status).toBe(200);

    const sites = await json<Array<{ domain: string; has_key: boolean; origin: string }>>(d, 'site', 'list');
    expect(sites).toContainEqual(expect.objectContaining({ domain: 'example.test', has_key: true, origin: 'http://127.0.0.1:8081' }));
    expect(sites.map((s) => s.domain).sort()).toEqual(['demo.localhost', 'example.test']);
    expect(await readFile(configOf(d), 'utf8')).toContain(sha256(key));
    expect((await json<{ api_access: boolean }>(d, 'account', 'api-access')).api_access).toBe(true);
  });
});

describe('daemon settings given as daemon start flags', SLOW, () => {
  it('a socket moved by --admin-socket alone is found by later CLI calls; a table setting (--edge-max-uri-bytes) applies', async () => {
    const d = await newSandbox();
    const socket = join(d.box.home, 'elsewhere.sock');
    const started = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)), '--admin-socket', socket, '--edge-max-uri-bytes', '200');
    expect(started.code, started.stderr).toBe(0);
    const status = await json<Status & { admin_socket: string }>(d, 'daemon', 'status');
    expect(status.admin_socket).toBe(socket);
    expect((await get(`http://127.0.0.1:${status.ports.edge}/?q=${'a'.repeat(300)}`, 'example.test')).status).toBe(414);
    expect((await d.wafctl('site', 'add', 'moved.test', '--origin', 'http://127.0.0.1:8081')).code).toBe(0);
    expect((await d.wafctl('daemon', 'stop')).code).toBe(0);
    expect(existsSync(join(d.box.dataDir, 'wafctl.sock.path'))).toBe(false);
    expect((await d.wafctl('daemon', 'status')).code).toBe(4);
    const refused = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)), '--edge-max-uri-bytes', 'many');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: daemon_start_failed: .*edge-max-uri-bytes/);
  });
});

describe('daemon start refuses what it cannot run on, and changes nothing', SLOW, () => {
  let blocker: Server;
  let busyPort: number;

  beforeAll(async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    busyPort = (blocker.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

  it('a port in use: exit 1 naming the port', async () => {
    const d = await newSandbox();
    const result = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)), '--edge-port', String(busyPort));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^error: daemon_start_failed: .*${busyPort}`));
    expect((await d.wafctl('daemon', 'status')).code).toBe(4);
  });

  it('a data dir that cannot be written: exit 1 naming it', async () => {
    const d = await newSandbox();
    // A regular file where the data dir's parent should be: not writable even for root.
    const parent = join(d.box.home, 'not-a-dir');
    await writeFile(parent, 'x');
    const dataDir = join(parent, 'data');
    const result = await d.wafctl('--data-dir', dataDir, 'daemon', 'start', ...(await quickStartFlags(d.box)));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: daemon_start_failed: .*not-a-dir/);
    expect(await readFile(parent, 'utf8')).toBe('x');
  });

  it('a corrupt config.json: exit 1 naming the file, which is left untouched', async () => {
    const d = await newSandbox();
    await mkdir(d.box.dataDir, { recursive: true });
    const corrupt = '{"version": 1, "sites": [ this is not json';
    await writeFile(join(d.box.dataDir, 'config.json'), corrupt, { mode: 0o600 });
    const result = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: daemon_start_failed: .*config\.json/);
    expect(await readFile(join(d.box.dataDir, 'config.json'), 'utf8')).toBe(corrupt);
  });
});

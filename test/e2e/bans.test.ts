// Bans end to end: `wafctl protect auto-ban` and `wafctl bans` as real processes against a real
// daemon, and their effect through the real edge with real requests (loopback is a trusted proxy,
// so X-Forwarded-For gives each client an address of its own). A client that goes over a rate
// limit is banned from the whole site; the ban is listed, logged, kept across a restart and lifted
// on command; manual bans of ranges; the whitelist wins; bad inputs change nothing. Then the same
// ban enforced by every edge worker of a daemon with --workers 2.
import { createServer, request, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSandbox, stopAll, type E2eDaemon } from './daemon-harness.js';

let origin: Server;
let originUrl: string;

beforeAll(async () => {
  origin = createServer((_req, res) => res.end('origin ok'));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
}, 60_000);
afterAll(async () => {
  await stopAll();
  await new Promise<void>((resolve) => origin.close(() => resolve()));
}, 60_000);

async function startDaemon(workers: number): Promise<{ d: E2eDaemon; edge: () => number }> {
  const d = await newSandbox();
  d.box.env.WAFCTL_TRUSTED_PROXIES = '127.0.0.1';
  let edge = 0;
  const start = async (): Promise<void> => {
    const started = await d.wafctl('daemon', 'start', '--edge-port', '0', '--edge-tls-port', '0', '--api-port', '0', '--workers', String(workers));
    expect(started.code, started.stderr).toBe(0);
    edge = (JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout) as { ports: { edge: number } }).ports.edge;
  };
  await start();
  return { d: Object.assign(d, { restart: start }), edge: () => edge };
}

function get(port: number, host: string, path: string, client: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers: { host, 'x-forwarded-for': client, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) e2e', accept: 'text/html' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Config and ban changes apply within a second; bounded by time so a broken build fails, not hangs. */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for: ${what}`);
}

/** A site with a limit of 1 a minute on /login and auto-ban on the first strike. */
async function bannableSite(d: E2eDaemon, port: () => number, name: string): Promise<string> {
  const site = `${name}.example.test`;
  expect((await d.wafctl('site', 'add', site, '--origin', originUrl)).code).toBe(0);
  await eventually(async () => (await get(port(), site, '/', '203.0.113.250')) === 200, `${site} live`);
  const limit = await d.wafctl('--site', site, 'protect', 'rate-limit', 'add', '/login', '--per-minute', '1');
  expect(limit.code, limit.stderr).toBe(0);
  const auto = await d.wafctl('--json', '--site', site, 'protect', 'auto-ban', '--strikes', '1', '--within', '10m', '--ban-for', '1h');
  expect(auto.code, auto.stderr).toBe(0);
  expect(JSON.parse(auto.stdout)).toEqual({ strikes: 1, window_minutes: 10, ban_minutes: 60 });
  // In force once a probe client of its own is limited.
  await eventually(async () => (await get(port(), site, '/login', '203.0.113.251')) === 429, 'the limit applied');
  return site;
}

/** Goes over the limit until the client is banned: the first request over it in a minute is the strike. */
async function getBanned(port: () => number, site: string, client: string): Promise<void> {
  await eventually(async () => {
    const login = await get(port(), site, '/login', client);
    if (login === 403) return true;
    return (await get(port(), site, '/', client)) === 403;
  }, `${client} banned`);
}

interface BanRow {
  ip: string;
  state: string;
  source: string;
  reason: string;
  expires_at: string;
}

describe('bans on a single daemon', () => {
  it('auto-bans a client over a rate limit from the whole site; listed, logged, kept across a restart, lifted', { timeout: 240_000 }, async () => {
    const { d, edge } = await startDaemon(1);
    const site = await bannableSite(d, edge, 'autoban');
    await getBanned(edge, site, '198.51.100.7');
    // The whole site, every path; another client is untouched.
    expect(await get(edge(), site, '/anything', '198.51.100.7')).toBe(403);
    expect(await get(edge(), site, '/', '198.51.100.8')).toBe(200);

    const list = JSON.parse((await d.wafctl('--json', '--site', site, 'bans', 'list')).stdout) as BanRow[];
    expect(list.find((b) => b.ip === '198.51.100.7')).toMatchObject({ state: 'active', source: 'auto', reason: '1 rate-limit strike within 10 min' });
    const human = await d.wafctl('--site', site, 'bans', 'list');
    expect(human.stdout).toMatch(/198\.51\.100\.7\s+active/);
    await eventually(async () => {
      const logs = JSON.parse((await d.wafctl('--json', '--site', site, 'logs', '--search', 'group:ban', '--per-page', '100')).stdout) as { logs: Array<{ client_ip: string; waf_rule_id: string }> };
      return logs.logs.some((l) => l.client_ip === '198.51.100.7' && l.waf_rule_id === 'auto-ban') && logs.logs.some((l) => l.waf_rule_id === 'ban');
    }, 'the ban and a refused request in the logs');

    // Manual bans of a range; the whitelist still wins inside it.
    const added = await d.wafctl('--json', '--site', site, 'bans', 'add', '192.0.2.0/24', '--for', '2h', '--reason', 'scanner');
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ ip: '192.0.2.0/24', source: 'manual', reason: 'scanner', revoked_at: null });
    await eventually(async () => (await get(edge(), site, '/', '192.0.2.77')) === 403, 'the range banned');
    expect(await get(edge(), site, '/', '192.0.3.1')).toBe(200);
    const whitelisted = await d.wafctl('--site', site, 'ip-rules', 'add', '192.0.2.10', '--whitelist');
    expect(whitelisted.code, whitelisted.stderr).toBe(0);
    await eventually(async () => (await get(edge(), site, '/', '192.0.2.10')) === 200, 'the whitelisted address let through');
    // An IPv4-mapped client is its IPv4 address.
    expect(await get(edge(), site, '/', '::ffff:192.0.2.78')).toBe(403);

    // Kept in <data>/bans.json: a restarted daemon still refuses the banned client and range.
    expect((await d.wafctl('daemon', 'stop')).code).toBe(0);
    await (d as E2eDaemon & { restart(): Promise<void> }).restart();
    await eventually(async () => (await get(edge(), site, '/', '198.51.100.8')) === 200, 'the restarted edge serving');
    expect(await get(edge(), site, '/', '198.51.100.7')).toBe(403);
    expect(await get(edge(), site, '/', '192.0.2.77')).toBe(403);

    const removed = await d.wafctl('--site', site, 'bans', 'remove', '198.51.100.7');
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stderr).toContain('198.51.100.7 is no longer banned');
    await eventually(async () => (await get(edge(), site, '/', '198.51.100.7')) === 200, 'the ban lifted');
    const all = JSON.parse((await d.wafctl('--json', '--site', site, 'bans', 'list', '--all')).stdout) as BanRow[];
    expect(all.find((b) => b.ip === '198.51.100.7')?.state).toBe('revoked');
    // Still active: the range, and the probe client of bannableSite, which went over the limit too.
    expect((JSON.parse((await d.wafctl('--json', '--site', site, 'bans', 'list')).stdout) as BanRow[]).map((b) => b.ip).sort()).toEqual(['192.0.2.0/24', '203.0.113.251']);
  });

  it('refuses bad input with a clear error and changes nothing', { timeout: 120_000 }, async () => {
    const { d, edge } = await startDaemon(1);
    const site = 'bans-bad.example.test';
    expect((await d.wafctl('site', 'add', site, '--origin', originUrl)).code).toBe(0);
    await eventually(async () => (await get(edge(), site, '/', '10.1.2.3')) === 200, `${site} live`);
    const cases: Array<{ args: string[]; code: number; says: RegExp }> = [
      { args: ['bans', 'add', 'not-an-ip'], code: 1, says: /validation_error: ip: / },
      { args: ['bans', 'add', '10.1.2.3/8'], code: 1, says: /validation_error: ip: / },
      { args: ['bans', 'add', '10.1.2.3', '--for', '0m'], code: 2, says: /duration/ },
      { args: ['bans', 'add', '10.1.2.3', '--for', 'soon'], code: 2, says: /duration/ },
      { args: ['bans', 'add', '10.1.2.3', '--for', '400d'], code: 1, says: /validation_error: minutes/ },
      { args: ['bans', 'add', '10.1.2.3', '--reason', 'x'.repeat(201)], code: 1, says: /validation_error: reason/ },
      { args: ['bans', 'remove', '10.9.9.9'], code: 1, says: /not_found: 10\.9\.9\.9 has no active ban/ },
      { args: ['protect', 'auto-ban', '--strikes', '0'], code: 2, says: /at least 1/ },
      { args: ['protect', 'auto-ban', '--strikes', '101'], code: 1, says: /validation_error: strikes/ },
      { args: ['protect', 'auto-ban', '--within', '2d'], code: 1, says: /validation_error: window_minutes/ },
      { args: ['protect', 'auto-ban', '--off', '--strikes', '3'], code: 2, says: /--off takes no other option/ },
    ];
    for (const c of cases) {
      const run = await d.wafctl('--site', site, ...c.args);
      expect(run.code, `${c.args.join(' ')}: ${run.stderr}`).toBe(c.code);
      expect(run.stderr, c.args.join(' ')).toMatch(c.says);
    }
    const unknown = await d.wafctl('--site', 'nope.example.test', 'bans', 'list');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('not_found');
    // Nothing changed.
    expect(JSON.parse((await d.wafctl('--json', '--site', site, 'bans', 'list', '--all')).stdout)).toEqual([]);
    expect(JSON.parse((await d.wafctl('--json', '--site', site, 'protect', 'auto-ban')).stdout)).toBeNull();
    expect(await get(edge(), site, '/', '10.1.2.3')).toBe(200);
  });
});

describe('bans with --workers 2', () => {
  it('a ban set from one worker\'s strike holds on every worker, and its lift too', { timeout: 240_000 }, async () => {
    const { d, edge } = await startDaemon(2);
    const site = await bannableSite(d, edge, 'autoban-workers');
    await getBanned(edge, site, '198.51.100.70');
    // New connections are spread over both workers: every one refuses the client.
    // (Each worker applies the primary's BANS message on its own, a moment apart.)
    await eventually(async () => {
      const codes = await Promise.all(Array.from({ length: 12 }, () => get(edge(), site, '/', '198.51.100.70')));
      return codes.every((c) => c === 403);
    }, 'the ban on every worker');
    expect((await d.wafctl('--site', site, 'bans', 'remove', '198.51.100.70')).code).toBe(0);
    await eventually(async () => {
      const after = await Promise.all(Array.from({ length: 12 }, () => get(edge(), site, '/', '198.51.100.70')));
      return after.every((c) => c === 200);
    }, 'the lift on every worker');
  });
});

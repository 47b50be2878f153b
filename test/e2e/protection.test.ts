// Protection settings end to end: each one changed with the wafctl binary against a real daemon
// (with the Debian Core Rule Set that .ci/run installs), and its effect seen through the real edge
// with real requests. Loopback requests get public client addresses through --trusted-proxy and
// X-Forwarded-For (WAFCTL_TRUSTED_PROXIES). Bad inputs to each command: a clear error, the right exit status, nothing changed.
// One daemon for the file; each test adds sites of its own and changes only those, so the tests pass
// alone and in any order. The tests that stop a daemon or need two workers start daemons of their own.
import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalCa, createServerCertificate } from '../../daemon/tls/certificates.js';
import { newSandbox, stopAll, type E2eDaemon } from './daemon-harness.js';

let origin: Server;
let originUrl: string;
let d: E2eDaemon;
let edge: number;
let edgeTls: number;

const SQLI = "/?id=1%27%20OR%201=1--";

/** Starts a daemon with the Core Rule Set on free ports; loopback is a trusted proxy. */
async function startProtecting(daemon: E2eDaemon, workers = 1): Promise<{ edge: number; edgeTls: number }> {
  // `wafctl daemon start` has no --trusted-proxy flag (yet); the daemon reads the same setting from its environment.
  daemon.box.env.WAFCTL_TRUSTED_PROXIES = '127.0.0.1';
  const start = await daemon.wafctl('daemon', 'start', '--edge-port', '0', '--edge-tls-port', '0', '--api-port', '0', '--workers', String(workers));
  expect(start.code, start.stderr).toBe(0);
  const status = JSON.parse((await daemon.wafctl('--json', 'daemon', 'status')).stdout) as { ports: { edge: number; edge_tls: number }; crs: { found: boolean } };
  expect(status.crs.found, 'the Core Rule Set is installed (apt-get install modsecurity-crs)').toBe(true);
  return { edge: status.ports.edge, edgeTls: status.ports.edge_tls };
}

beforeAll(async () => {
  origin = createServer((_req, res) => res.end('origin ok'));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
  d = await newSandbox();
  ({ edge, edgeTls } = await startProtecting(d));
}, 180_000);
afterAll(async () => {
  await stopAll();
  await new Promise<void>((resolve) => origin.close(() => resolve()));
}, 60_000);

/**
 * A site of the calling test's own (`name`.example.test, its login profile saved) on a daemon,
 * once the edge serves it with its WAF on: its settings are that test's alone to change.
 */
async function newSite(name: string, daemon = d, port = () => edge): Promise<string> {
  const domain = `${name}.example.test`;
  const added = await daemon.wafctl('site', 'add', domain, '--origin', originUrl);
  expect(added.code, added.stderr).toBe(0);
  await eventually(async () => (await get(domain, '/', undefined, port())) === 200 && (await get(domain, SQLI, undefined, port())) === 403, `${domain} live at the edge`);
  return domain;
}

function get(host: string, path: string, client = '203.0.113.50', port = edge): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers: { host, 'x-forwarded-for': client, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) e2e', accept: 'text/html' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A request over a raw socket: every byte the edge sent back, and how the connection ended. */
function raw(host: string, path: string, client: string): Promise<{ bytes: number; ended: 'reset' | 'closed' }> {
  return new Promise((resolve) => {
    let bytes = 0;
    const socket = connect(edge, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nX-Forwarded-For: ${client}\r\nUser-Agent: Mozilla/5.0 e2e\r\n\r\n`);
    });
    socket.on('data', (chunk) => { bytes += chunk.length; });
    socket.on('error', () => resolve({ bytes, ended: 'reset' }));
    socket.on('close', () => resolve({ bytes, ended: 'closed' }));
    socket.setTimeout(10_000, () => socket.destroy());
  });
}

/** Config changes apply within a second; a new rule set compiles in the background (CRS: a second or more). */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for: ${what}`);
}

/**
 * The rate-limit window is a wall-clock minute: runs `count` from a start well inside one, and again
 * (with the next attempt number, for a fresh client) if it ended in the next minute all the same.
 */
async function inOneMinute<T>(count: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 200));
    const minute = Math.floor(Date.now() / 60_000);
    const result = await count(attempt);
    if (Math.floor(Date.now() / 60_000) === minute) return result;
  }
  throw new Error('three counts in a row straddled a minute boundary');
}

describe('protect rate-limit', () => {
  it('add: the N+1th request in a minute gets 429; list shows it; remove lifts it', { timeout: 240_000 }, async () => {
    const SHOP = await newSite('rate-add');
    const add = await d.wafctl('--site', SHOP, 'protect', 'rate-limit', 'add', '/Limited', '--per-minute', '3');
    expect(add.code, add.stderr).toBe(0);
    const list = JSON.parse((await d.wafctl('--json', '--site', SHOP, 'protect', 'rate-limit', 'list')).stdout);
    expect(list).toEqual([{ path: '/limited', per_minute: 3 }]);
    // The limit is in force once a client of its own is limited (the counter is per client IP).
    await eventually(async () => (await get(SHOP, '/limited/probe', '198.51.100.39')) === 429, 'the limit applied');
    const { client, codes, other } = await inOneMinute(async (attempt) => {
      const ip = `198.51.100.${31 + 2 * attempt}`;
      const seen = [];
      for (let i = 0; i < 5; i++) seen.push(await get(SHOP, '/limited/page', ip));
      return { client: ip, codes: seen, other: await get(SHOP, '/limited/page', `198.51.100.${32 + 2 * attempt}`) };
    });
    expect(codes).toEqual([200, 200, 200, 429, 429]);
    expect(other).toBe(200); // per client IP
    expect((await d.wafctl('--site', SHOP, 'protect', 'rate-limit', 'remove', '/limited')).code).toBe(0);
    await eventually(async () => (await get(SHOP, '/limited/page', client)) === 200, 'the limit lifted');
  });

  it('refuses bad input with a clear error and changes nothing', { timeout: 120_000 }, async () => {
    const SHOP = await newSite('rate-bad');
    const noRate = await d.wafctl('--site', SHOP, 'protect', 'rate-limit', 'add', '/x');
    expect(noRate.code).toBe(2);
    expect(noRate.stderr).toContain("'--per-minute <n>' not specified");
    const zero = await d.wafctl('--site', SHOP, 'protect', 'rate-limit', 'add', '/x', '--per-minute', '0');
    expect(zero.code).toBe(2);
    const badPath = await d.wafctl('--site', SHOP, 'protect', 'rate-limit', 'add', 'x', '--per-minute', '5');
    expect(badPath.code).toBe(1);
    expect(badPath.stderr).toContain('error: validation_error: path: must start with /');
    const unknown = await d.wafctl('--site', SHOP, 'protect', 'rate-limit', 'remove', '/never');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('error: not_found:');
    const noSite = await d.wafctl('--site', 'nope.example.test', 'protect', 'rate-limit', 'list');
    expect(noSite.code).toBe(1);
    expect(noSite.stderr).toContain('error: not_found: no site nope.example.test');
    expect((await d.wafctl('--json', '--site', SHOP, 'protect', 'rate-limit', 'list')).stdout.trim()).toBe('[]');
  });
});

describe('protect page and the block response', () => {
  it('page add: only the allowed IP reaches the path; others get 403, then 404, then a dropped connection', { timeout: 120_000 }, async () => {
    const SHOP = await newSite('page-add');
    const add = await d.wafctl('--site', SHOP, 'protect', 'page', 'add', '/admin-area', '--allow', '198.51.100.10,2001:DB8::/32');
    expect(add.code, add.stderr).toBe(0);
    expect(JSON.parse((await d.wafctl('--json', '--site', SHOP, 'protect', 'page', 'list')).stdout)).toEqual([{ path: '/admin-area', allow: ['198.51.100.10', '2001:db8::/32'] }]);
    await eventually(async () => (await get(SHOP, '/admin-area/x', '203.0.113.20')) === 403, 'page protection applied');
    expect(await get(SHOP, '/admin-area/x', '198.51.100.10')).toBe(200);
    expect(await get(SHOP, '/admin-area/x', '2001:db8::5')).toBe(200);
    expect(await get(SHOP, '/elsewhere', '203.0.113.20')).toBe(200);

    expect((await d.wafctl('site', 'set', SHOP, '--block-response', '404')).code).toBe(0);
    await eventually(async () => (await get(SHOP, '/admin-area/x', '203.0.113.20')) === 404, 'block response 404');

    expect((await d.wafctl('site', 'set', SHOP, '--block-response', 'drop')).code).toBe(0);
    await eventually(async () => (await raw(SHOP, '/admin-area/x', '203.0.113.20')).bytes === 0, 'block response drop');
    const dropped = await raw(SHOP, '/admin-area/x', '203.0.113.20');
    expect(dropped.bytes).toBe(0);
    expect((await raw(SHOP, '/elsewhere', '203.0.113.20')).bytes).toBeGreaterThan(0);
    expect((await d.wafctl('site', 'set', SHOP, '--block-response', '403')).code).toBe(0);
  });

  it('refuses bad input with a clear error and changes nothing', { timeout: 120_000 }, async () => {
    const SHOP = await newSite('page-bad');
    // A protected path for the duplicate case to collide with.
    expect((await d.wafctl('--site', SHOP, 'protect', 'page', 'add', '/admin-area', '--allow', '198.51.100.10')).code).toBe(0);
    const before = (await d.wafctl('--json', '--site', SHOP, 'protect', 'page', 'list')).stdout;
    const badIp = await d.wafctl('--site', SHOP, 'protect', 'page', 'add', '/p', '--allow', '198.51.100.10,1.2.3');
    expect(badIp.code).toBe(1);
    expect(badIp.stderr).toContain('error: validation_error: allow[1]: "1.2.3" is not an IPv4 address (four decimal numbers 0-255 without leading zeros) or an IPv6 address');
    const noAllow = await d.wafctl('--site', SHOP, 'protect', 'page', 'add', '/p');
    expect(noAllow.code).toBe(2);
    const dup = await d.wafctl('--site', SHOP, 'protect', 'page', 'add', '/ADMIN-AREA', '--allow', '1.2.3.4');
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('error: duplicate:');
    const badResponse = await d.wafctl('site', 'set', SHOP, '--block-response', '500');
    expect(badResponse.code).toBe(2);
    expect((await d.wafctl('--json', '--site', SHOP, 'protect', 'page', 'list')).stdout).toBe(before);
  });
});

describe('protect bot', () => {
  it('on blocks scanners, off lets them through; bad states are usage errors', { timeout: 120_000 }, async () => {
    const SHOP = await newSite('bot');
    const scanner = () => new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: edge, path: '/', agent: false, headers: { host: SHOP, 'x-forwarded-for': '203.0.113.77', 'user-agent': 'sqlmap/1.7' } }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode!)); });
      req.on('error', reject);
      req.end();
    });
    expect((await d.wafctl('--site', SHOP, 'site', 'set', SHOP, '--mode', 'off')).code).toBe(0); // isolate the bot check from CRS's own scanner rule
    await eventually(async () => (await scanner()) === 200, 'WAF off');
    expect((await d.wafctl('--site', SHOP, 'protect', 'bot', 'on')).code).toBe(0);
    await eventually(async () => (await scanner()) === 403, 'bot protection on');
    const shown = JSON.parse((await d.wafctl('--json', '--site', SHOP, 'protect', 'bot')).stdout);
    expect(shown).toEqual({ enabled: true, challenge: 'off', challenge_exempt: [] });
    expect((await d.wafctl('--site', SHOP, 'protect', 'bot', 'off')).code).toBe(0);
    await eventually(async () => (await scanner()) === 200, 'bot protection off');
    const bad = await d.wafctl('--site', SHOP, 'protect', 'bot', 'maybe');
    expect(bad.code).toBe(2);
    const badChallenge = await d.wafctl('--site', SHOP, 'protect', 'bot', 'on', '--challenge', 'captcha');
    expect(badChallenge.code).toBe(2);
    expect(JSON.parse((await d.wafctl('--json', '--site', SHOP, 'protect', 'bot')).stdout)).toEqual({ enabled: false, challenge: 'off', challenge_exempt: [] });
    expect((await d.wafctl('site', 'set', SHOP, '--mode', 'on')).code).toBe(0);
  });
});

describe('site set: WAF mode and thresholds', () => {
  it('--mode detect lets SQL injection through and still logs the event', { timeout: 120_000 }, async () => {
    const WAF = await newSite('mode-detect');
    expect(await get(WAF, SQLI)).toBe(403);
    const set = await d.wafctl('site', 'set', WAF, '--mode', 'detect');
    expect(set.code, set.stderr).toBe(0);
    await eventually(async () => (await get(WAF, `${SQLI}&detect=1`)) === 200, 'detect mode');
    await eventually(async () => {
      const logs = JSON.parse((await d.wafctl('--json', '--site', WAF, 'logs', '--search', '942100', '--per-page', '100')).stdout) as { logs: Array<{ uri: string }> };
      return logs.logs.some((l) => l.uri.includes('detect=1'));
    }, 'the detect-mode event in wafctl logs');
    expect((await d.wafctl('site', 'set', WAF, '--mode', 'on')).code).toBe(0);
    await eventually(async () => (await get(WAF, SQLI)) === 403, 'mode on again');
  });

  it('a higher inbound threshold lets through what the default blocks', { timeout: 120_000 }, async () => {
    const WAF = await newSite('threshold');
    const set = await d.wafctl('site', 'set', WAF, '--inbound-threshold', '1000');
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse((await d.wafctl('--json', 'site', 'show', WAF)).stdout).settings).toMatchObject({ inbound_threshold: 1000, mode: 'on' });
    await eventually(async () => (await get(WAF, SQLI)) === 200, 'threshold 1000 applied');
    expect((await d.wafctl('site', 'set', WAF, '--inbound-threshold', '5')).code).toBe(0);
    await eventually(async () => (await get(WAF, SQLI)) === 403, 'threshold 5 again');
  });

  it('refuses bad settings with a clear error and changes nothing', { timeout: 120_000 }, async () => {
    const WAF = await newSite('settings-bad');
    const before = JSON.parse((await d.wafctl('--json', 'site', 'show', WAF)).stdout).settings;
    for (const args of [['--paranoia', '5'], ['--mode', 'block'], ['--inbound-threshold', '-1'], ['--group', 'xyz=on'], ['--on-engine-error', 'maybe'], ['--body-over-limit', 'drop'], []]) {
      const r = await d.wafctl('site', 'set', WAF, ...args);
      expect(r.code, `site set ${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/^error: usage_error: /);
    }
    const ca = createLocalCa('e2e');
    const one = createServerCertificate(ca);
    const two = createServerCertificate(ca);
    await writeFile(join(d.box.home, 'one.crt'), one.certPem);
    await writeFile(join(d.box.home, 'two.key'), two.keyPem);
    const mismatch = await d.wafctl('site', 'set', WAF, '--tls-cert', join(d.box.home, 'one.crt'), '--tls-key', join(d.box.home, 'two.key'), '--paranoia', '2');
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toContain('error: validation_error: tls.key: does not match the certificate');
    const missing = await d.wafctl('site', 'set', WAF, '--tls-cert', join(d.box.home, 'none.crt'), '--tls-key', join(d.box.home, 'two.key'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('error: file_not_found: --tls-cert: no such file');
    expect(JSON.parse((await d.wafctl('--json', 'site', 'show', WAF)).stdout).settings).toEqual(before);
  });
});

/** The SHA-256 fingerprint of the certificate the edge presents for an SNI name. */
function presented(servername: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port: edgeTls, servername, rejectUnauthorized: false }, () => {
      resolve(socket.getPeerX509Certificate()!.fingerprint256);
      socket.destroy();
    });
    socket.on('error', reject);
  });
}

describe('site set: default site and certificate', () => {
  it('--default serves unclaimed hosts instead of the 421 page; --no-default goes back', { timeout: 120_000 }, async () => {
    // The only test that sets a default site (one per daemon).
    const SHOP = await newSite('default-a');
    const WAF = await newSite('default-b');
    expect(await get('unclaimed.example.test', '/')).toBe(421);
    expect((await d.wafctl('site', 'set', SHOP, '--default')).code).toBe(0);
    await eventually(async () => (await get('unclaimed.example.test', '/')) === 200, 'default site');
    const second = await d.wafctl('site', 'set', WAF, '--default');
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`error: duplicate: ${SHOP} is already the default site`);
    expect((await d.wafctl('site', 'set', SHOP, '--no-default')).code).toBe(0);
    await eventually(async () => (await get('unclaimed.example.test', '/')) === 421, 'no default site');
  });

  it('--tls-cert/--tls-key: the edge presents that certificate for the site by SNI; --generated-tls goes back', { timeout: 120_000 }, async () => {
    const SHOP = await newSite('tls-own');
    const WAF = await newSite('tls-other');
    const own = createServerCertificate(createLocalCa('e2e-site'));
    await writeFile(join(d.box.home, 'site.crt'), own.certPem);
    await writeFile(join(d.box.home, 'site.key'), own.keyPem);
    const ownPrint = new X509Certificate(own.certPem).fingerprint256;
    const generated = await presented(SHOP);
    expect(generated).not.toBe(ownPrint);
    const set = await d.wafctl('site', 'set', SHOP, '--tls-cert', join(d.box.home, 'site.crt'), '--tls-key', join(d.box.home, 'site.key'));
    expect(set.code, set.stderr).toBe(0);
    await eventually(async () => (await presented(SHOP)) === ownPrint, 'the site certificate');
    expect(await presented(WAF)).toBe(generated);
    expect((await d.wafctl('site', 'set', SHOP, '--generated-tls')).code).toBe(0);
    await eventually(async () => (await presented(SHOP)) === generated, 'the generated certificate again');
  });
});

describe('rules set and show', () => {
  it('--after with a rule of our own blocks its marker; a file with an error is refused as file:line and changes nothing', { timeout: 120_000 }, async () => {
    const WAF = await newSite('rules-own');
    const SHOP = await newSite('rules-other');
    const good = join(d.box.home, 'marker.conf');
    await writeFile(good, 'SecRule ARGS "@contains wafctl-e2e-marker" "id:1000001,phase:2,deny,status:403,log,msg:\'e2e marker\'"\n');
    expect(await get(WAF, '/?q=wafctl-e2e-marker')).toBe(200);
    const set = await d.wafctl('--site', WAF, 'rules', 'set', '--after', good);
    expect(set.code, set.stderr).toBe(0);
    await eventually(async () => (await get(WAF, '/?q=wafctl-e2e-marker')) === 403, 'the marker rule');
    expect(await get(WAF, '/?q=harmless')).toBe(200);
    expect(await get(SHOP, '/?q=wafctl-e2e-marker')).toBe(200); // another site, other rules

    const show = JSON.parse((await d.wafctl('--json', '--site', WAF, 'rules', 'show')).stdout);
    expect(show).toMatchObject({ site: WAF, after: { path: good, lines: 1 }, before: null, crs: { found: true }, load: { ok: true } });

    const bad = join(d.box.home, 'bad.conf');
    await writeFile(bad, '# a comment\nSecRule ARGS "@contains x" "id:1000002,phase:2,deny,nosuchaction"\n');
    const refused = await d.wafctl('--site', WAF, 'rules', 'set', '--after', bad);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(`^error: validation_error: ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: `));
    expect(JSON.parse((await d.wafctl('--json', '--site', WAF, 'rules', 'show')).stdout)).toEqual(show);
    expect(await get(WAF, '/?q=wafctl-e2e-marker')).toBe(403);

    const nothing = await d.wafctl('--site', WAF, 'rules', 'set');
    expect(nothing.code).toBe(2);
    const missing = await d.wafctl('--site', WAF, 'rules', 'set', '--before', join(d.box.home, 'nope.conf'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('error: file_not_found: --before: no such file');

    expect((await d.wafctl('--site', WAF, 'rules', 'set', '--no-after')).code).toBe(0);
    await eventually(async () => (await get(WAF, '/?q=wafctl-e2e-marker')) === 200, 'the marker rule removed');
  });
});

describe('a stored rule file that no longer loads at daemon start', () => {
  it('the site runs without it, and the daemon log and rules show say why', { timeout: 180_000 }, async () => {
    // A daemon of its own: this test stops it and starts it again (on new ports).
    const own = await newSandbox();
    let port = (await startProtecting(own)).edge;
    const WAF = await newSite('stored-rules', own, () => port);
    const dir = join(own.box.home, 'user-rules');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'agents.data'), 'wafctl-evil-agent\n');
    await writeFile(join(dir, 'agents.conf'), 'SecRule REQUEST_HEADERS:User-Agent "@pmFromFile agents.data" "id:1000020,phase:1,deny,status:403,log,msg:\'bad agent\'"\n');
    expect((await own.wafctl('--site', WAF, 'rules', 'set', '--after', join(dir, 'agents.conf'))).code).toBe(0);
    expect((await own.wafctl('daemon', 'stop')).code).toBe(0);
    await rm(join(dir, 'agents.data'));
    port = (await startProtecting(own)).edge;
    const show = JSON.parse((await own.wafctl('--json', '--site', WAF, 'rules', 'show')).stdout);
    expect(show.after).toMatchObject({ path: join(dir, 'agents.conf') });
    expect(show.load).toMatchObject({ ok: false });
    expect(show.load.error).toContain(`${join(dir, 'agents.conf')}:1:`);
    // The site still runs its other rules (CRS blocks SQL injection) and serves benign requests.
    await eventually(async () => (await get(WAF, SQLI, undefined, port)) === 403, 'CRS still on');
    expect(await get(WAF, '/', undefined, port)).toBe(200);
    await eventually(async () => (await readFile(join(own.box.dataDir, 'daemon.log'), 'utf8')).includes('agents.conf:1:'), 'the reason in the daemon log');
    expect((await own.wafctl('--site', WAF, 'rules', 'set', '--no-after')).code).toBe(0);
  });
});

describe('with --workers 2: per-site rules reach every edge worker', () => {
  it('rules set --after and a threshold change apply in the workers', { timeout: 120_000 }, async () => {
    const w = await newSandbox();
    const start = await w.wafctl('daemon', 'start', '--edge-port', '0', '--edge-tls-port', '0', '--api-port', '0', '--workers', '2');
    expect(start.code, start.stderr).toBe(0);
    const port = (JSON.parse((await w.wafctl('--json', 'daemon', 'status')).stdout) as { ports: { edge: number } }).ports.edge;
    const WAF = 'workers.example.test';
    expect((await w.wafctl('site', 'add', WAF, '--origin', originUrl)).code).toBe(0);
    const at = (path: string) => new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, agent: false, headers: { host: WAF, 'user-agent': 'Mozilla/5.0 e2e' } }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode!)); });
      req.on('error', reject);
      req.end();
    });
    const marker = join(w.box.home, 'marker.conf');
    await writeFile(marker, 'SecRule ARGS "@contains wafctl-worker-marker" "id:1000001,phase:2,deny,status:403,log,msg:\'marker\'"\n');
    expect((await w.wafctl('--site', WAF, 'rules', 'set', '--after', marker)).code).toBe(0);
    expect((await w.wafctl('site', 'set', WAF, '--inbound-threshold', '1000')).code).toBe(0);
    // New connections are dealt out to both workers: every one of ten in a row must see both settings.
    await eventually(async () => {
      const codes = await Promise.all(Array.from({ length: 10 }, (_, i) => at(i % 2 ? '/?q=wafctl-worker-marker' : "/?id=1%27%20OR%201=1--")));
      return codes.every((c, i) => c === (i % 2 ? 403 : 200));
    }, 'both workers on the new rule set', 60_000);
  });
});

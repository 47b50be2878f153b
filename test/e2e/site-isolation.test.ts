// Security review H1 end to end: one site's IP entry must never freeze the edge configuration of
// every site or stop the daemon from starting. The real daemon and edge, a real origin, the
// management API over real HTTPS (its CA pinned), config.json edited by hand as an operator might.
// - the API stores IPv4-mapped entries as IPv4 and refuses what the edge could not compile (422);
// - a site whose config.json entry does not compile is served 503 at start (no last good), the
//   others serve and update; fixing it through the API brings it back;
// - broken at run time, a site keeps its last good rules; the others still update;
// - the daemon starts with such a site, with one worker and with several.
// Each test sets the state it needs (restartWith), so they pass alone and in any order.
import { createServer, request as httpRequest, type Server } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema, IpRulesSchema } from '../../shared/schemas/management-api.js';
import { newSandbox, quickStartFlags, stopAll, type E2eDaemon } from './daemon-harness.js';

const GOOD = 'good.example.test';
const BROKEN = 'broken.example.test';

let origin: Server;
const originSaw: string[] = []; // Host of every request the origin got
let d: E2eDaemon;
let flags: string[];
let edge = 0;
let apiUrl = '';
let agent: Agent;
const keys: Record<string, string> = {};

beforeAll(async () => {
  origin = createServer((req, res) => {
    originSaw.push(String(req.headers.host));
    res.end('origin ok');
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  const originUrl = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
  d = await newSandbox();
  flags = await quickStartFlags(d.box);
  await start(flags);
  for (const site of [GOOD, BROKEN]) {
    const added = await d.wafctl('--json', 'site', 'add', site, '--origin', originUrl);
    expect(added.code, added.stderr).toBe(0);
    keys[site] = (JSON.parse(added.stdout) as { api_key: string }).api_key;
  }
}, 180_000);

afterAll(async () => {
  await stopAll();
  await new Promise<void>((resolve) => origin.close(() => resolve()));
}, 60_000);

/**
 * Stops the daemon, sets both sites' IP lists in config.json by hand (`broken`: entries for
 * broken.example.test's blacklist), starts it again; returns the daemon log's length before the start.
 */
async function restartWith(broken: string[], workers = 1): Promise<number> {
  const stopped = await d.wafctl('daemon', 'stop');
  expect(stopped.code, stopped.stderr).toBe(0);
  await editConfig((sites) => {
    for (const site of Object.values(sites)) {
      site.status = 'active';
      site.ip_rules = { whitelist: [], blacklist: [] };
    }
    sites[BROKEN].ip_rules.blacklist = broken.map(entry);
  });
  const mark = (await daemonLog()).length;
  await start(flags.map((f, i) => (flags[i - 1] === '--workers' ? String(workers) : f)));
  originSaw.length = 0;
  return mark;
}

async function start(args: string[]): Promise<void> {
  const started = await d.wafctl('daemon', 'start', ...args);
  expect(started.code, started.stderr).toBe(0);
  const status = JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout) as { api_url: string; ca_file: string; ports: { edge: number } };
  edge = status.ports.edge;
  apiUrl = status.api_url;
  agent = new Agent({ ca: await readFile(status.ca_file, 'utf8'), keepAlive: false });
}

type StoredSite = { domain: string; status: string; ip_rules: { whitelist: Array<{ ip: string }>; blacklist: Array<{ ip: string }> } };

function entry(ip: string) {
  return { ip, description: 'hand edit', added_at: new Date().toISOString() };
}

async function editConfig(edit: (sites: Record<string, StoredSite>) => void): Promise<void> {
  const file = join(d.box.dataDir, 'config.json');
  const config = JSON.parse(await readFile(file, 'utf8')) as { sites: StoredSite[] };
  edit(Object.fromEntries(config.sites.map((s) => [s.domain, s])));
  await writeFile(file, JSON.stringify(config, null, 2));
}

function get(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: edge, path: '/', agent: false, headers: { host, 'user-agent': 'Mozilla/5.0 e2e', accept: 'text/html' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

function api(site: string, method: string, path: string, body?: unknown) {
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { 'x-service-key': keys[site], accept: 'application/json' };
    if (text !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
    const req = httpsRequest(new URL(`/api/v1${path}`, apiUrl), { method, agent, headers }, (res) => {
      let out = '';
      res.on('data', (chunk) => (out += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: out ? JSON.parse(out) : null }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

/** Config changes reach the edge asynchronously (store, then the edge or its workers): wait for the effect. */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for: ${what}`);
}

async function daemonLog(): Promise<string> {
  return readFile(join(d.box.dataDir, 'daemon.log'), 'utf8');
}

describe('the API and the edge share one IP parser', () => {
  it('the API stores IPv4-mapped entries as IPv4, over HTTPS', async () => {
    const before = (await api(GOOD, 'GET', '/ip-rules')).body.data;
    const added = await api(GOOD, 'POST', '/ip-rules/whitelist', { ip: '::ffff:10.0.0.0/104' });
    expect(added).toEqual({ status: 201, body: { success: true, message: '10.0.0.0/8 added to the whitelist' } });
    const again = await api(GOOD, 'POST', '/ip-rules/blacklist', { ip: '0:0:0:0:0:FFFF:0A00:0/104' });
    expect(again.status).toBe(409);
    expect(ErrorEnvelopeSchema.parse(again.body)).toMatchObject({ error: 'duplicate' });
    expect((await api(GOOD, 'POST', '/ip-rules/blacklist', { ip: '::ffff:203.0.113.9' })).body.message).toBe('203.0.113.9 added to the blacklist');
    const lists = IpRulesSchema.parse((await api(GOOD, 'GET', '/ip-rules')).body.data);
    expect(lists.whitelist.map((r) => r.ip)).toContain('10.0.0.0/8');
    expect(lists.blacklist.map((r) => r.ip)).toContain('203.0.113.9');
    // Removed by any spelling of it.
    expect((await api(GOOD, 'DELETE', '/ip-rules', { ip: '::ffff:a00:0/104', type: 'whitelist' })).status).toBe(200);
    expect((await api(GOOD, 'DELETE', '/ip-rules', { ip: '::FFFF:203.0.113.9', type: 'blacklist' })).status).toBe(200);
    expect((await api(GOOD, 'GET', '/ip-rules')).body.data).toEqual(before);
  });

  it.each([
    ['::ffff:10.0.0.1/104', /host bits set: the network is 10\.0\.0\.0\/8/],
    ['10.1.2.3/8', /host bits set/],
    ['::ffff:10.0.0.0/129', /prefix length "129"/],
    ['10.0.0.0/33', /prefix length "33"/],
    ['fe80::1%eth0', /zone id/],
    ['::ffff:010.0.0.1', /not an IPv6 address/],
    ['::1.2.3.4', /deprecated IPv4-compatible/],
    ['10.0.0.0/8 ; drop', /prefix length/],
    ['x'.repeat(100), /longer than 64/],
  ])('the API refuses %j with 422 and the reason, storing nothing', async (ip, reason) => {
    const before = (await api(GOOD, 'GET', '/ip-rules')).body.data;
    for (const list of ['whitelist', 'blacklist']) {
      const refused = await api(GOOD, 'POST', `/ip-rules/${list}`, { ip });
      expect(refused.status).toBe(422);
      const body = ErrorEnvelopeSchema.parse(refused.body);
      expect(body.error).toBe('validation_error');
      expect(body.message).toMatch(reason);
    }
    expect((await api(GOOD, 'GET', '/ip-rules')).body.data).toEqual(before);
  });
});

// Each test stops and starts the daemon (CRS compiled again, with workers twice) and waits for
// reloads: at load ~15 on two cores that took past the default 30 s, so these get 120 s.
describe('one site that does not compile', { timeout: 120_000 }, () => {
  it('an entry an older version stored (the review: ::ffff:a00:0/104) no longer stops the start: it is the IPv4 range', async () => {
    await restartWith(['::ffff:7f00:0/104']); // 127.0.0.0/8, so the loopback client is blocked
    expect(await get(BROKEN)).toBe(403);
    expect(await get(GOOD)).toBe(200);
    expect((await api(BROKEN, 'GET', '/ip-rules')).body.data.blacklist.map((r: { ip: string }) => r.ip)).toEqual(['::ffff:7f00:0/104']);
    // The API finds it by its canonical form.
    const again = await api(BROKEN, 'POST', '/ip-rules/whitelist', { ip: '127.0.0.0/8' });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already in the blacklist/);
    expect((await api(BROKEN, 'DELETE', '/ip-rules', { ip: '127.0.0.0/8', type: 'blacklist' })).status).toBe(200);
    await eventually(async () => (await get(BROKEN)) === 200, 'the entry is gone at the edge');
  });

  it('at start: the daemon starts, that site answers 503 and forwards nothing, the other serves and updates; the API repairs it', async () => {
    const mark = await restartWith(['10.1.2.3/8', 'fe80::1%eth0', '1.2.3.4/33']);
    expect(await get(GOOD)).toBe(200);
    expect(await get(BROKEN)).toBe(503);
    expect(originSaw).toEqual([GOOD]);
    expect((await daemonLog()).slice(mark)).toMatch(/site \d+ \(broken\.example\.test\) configuration not applied, it is served unavailable \(503\).*10\.1\.2\.3\/8.*host bits/);
    // The other site's changes apply (the review's symptom: they never did).
    expect((await api(GOOD, 'POST', '/ip-rules/blacklist', { ip: '::ffff:127.0.0.1' })).status).toBe(201);
    await eventually(async () => (await get(GOOD)) === 403, 'good site blocks the blacklisted loopback client');
    expect((await d.wafctl('site', 'disable', GOOD)).code).toBe(0);
    await eventually(async () => (await get(GOOD)) === 503, 'disabling the good site applies');
    expect((await d.wafctl('site', 'enable', GOOD)).code).toBe(0);
    expect((await api(GOOD, 'DELETE', '/ip-rules', { ip: '127.0.0.1', type: 'blacklist' })).status).toBe(200);
    await eventually(async () => (await get(GOOD)) === 200, 'good site serves again');
    expect(await get(BROKEN)).toBe(503);
    // Its bad entries are removed through the API by their exact text; then it serves.
    expect((await api(BROKEN, 'DELETE', '/ip-rules', { ip: '10.1.2.3/8', type: 'blacklist' })).status).toBe(200);
    expect((await api(BROKEN, 'DELETE', '/ip-rules', { ip: 'fe80::1%eth0', type: 'blacklist' })).status).toBe(200);
    expect((await api(BROKEN, 'DELETE', '/ip-rules', { ip: '1.2.3.4/33', type: 'blacklist' })).status).toBe(200);
    await eventually(async () => (await get(BROKEN)) === 200, 'the repaired site serves');
    expect(originSaw.at(-1)).toBe(BROKEN);
  });

  it('at run time (hand edit + reload): that site keeps its last good rules, the other still updates, disabling it applies', async () => {
    await restartWith(['127.0.0.1']);
    expect(await get(BROKEN)).toBe(403);
    // The hand edit drops the blacklist entry and adds one the edge cannot compile: none of it applies.
    await editConfig((sites) => {
      sites[BROKEN].ip_rules.blacklist = [entry('::ffff:1.2.3.4/95')];
    });
    const reload = await d.wafctl('daemon', 'reload');
    expect(reload.code, reload.stderr).toBe(0);
    await eventually(async () => /site \d+ \(broken\.example\.test\) configuration not applied, its last good configuration stays.*1\.2\.3\.4\/95/.test(await daemonLog()),
      'the log names the site, the kept configuration and the reason');
    expect(await get(BROKEN)).toBe(403);
    expect((await api(GOOD, 'POST', '/ip-rules/blacklist', { ip: '127.0.0.1' })).status).toBe(201);
    await eventually(async () => (await get(GOOD)) === 403, 'good site applies its new blacklist entry');
    expect((await api(GOOD, 'DELETE', '/ip-rules', { ip: '127.0.0.1', type: 'blacklist' })).status).toBe(200);
    await eventually(async () => (await get(GOOD)) === 200, 'good site serves again');
    expect(await get(BROKEN)).toBe(403);
    expect((await d.wafctl('site', 'disable', BROKEN)).code).toBe(0);
    await eventually(async () => (await get(BROKEN)) === 503, 'disabling the broken site applies');
    expect((await d.wafctl('site', 'enable', BROKEN)).code).toBe(0);
  });

  it('with several workers: the daemon starts, every worker answers the same, last good kept at run time', async () => {
    const mark = await restartWith(['2001:db8::1/32', 'not an address'], 2);
    // Fresh connections each time: whichever worker takes one answers the same.
    for (let i = 0; i < 6; i++) {
      expect(await get(GOOD)).toBe(200);
      expect(await get(BROKEN)).toBe(503);
    }
    expect(new Set(originSaw)).toEqual(new Set([GOOD]));
    expect((await daemonLog()).slice(mark)).toMatch(/broken\.example\.test\) configuration not applied, it is served unavailable.*2001:db8::1\/32/);
    // Repaired, then broken again at run time: the workers keep the repaired rules.
    expect((await api(BROKEN, 'DELETE', '/ip-rules', { ip: '2001:db8::1/32', type: 'blacklist' })).status).toBe(200);
    expect((await api(BROKEN, 'DELETE', '/ip-rules', { ip: 'not an address', type: 'blacklist' })).status).toBe(200);
    expect((await api(BROKEN, 'POST', '/ip-rules/blacklist', { ip: '127.0.0.1' })).status).toBe(201);
    await eventually(async () => (await get(BROKEN)) === 403, 'repaired site applies its blacklist');
    await editConfig((sites) => {
      sites[BROKEN].ip_rules.blacklist = [entry('1.2.3.4/99')];
    });
    expect((await d.wafctl('daemon', 'reload')).code).toBe(0);
    await eventually(async () => /broken\.example\.test\) configuration not applied, its last good configuration stays.*1\.2\.3\.4\/99/.test((await daemonLog()).slice(mark)),
      'the log names the site and the reason');
    for (let i = 0; i < 6; i++) expect(await get(BROKEN)).toBe(403);
    expect((await api(GOOD, 'POST', '/ip-rules/blacklist', { ip: '127.0.0.1' })).status).toBe(201);
    await eventually(async () => (await get(GOOD)) === 403, 'good site applies its change in the workers');
    expect((await api(GOOD, 'DELETE', '/ip-rules', { ip: '127.0.0.1', type: 'blacklist' })).status).toBe(200);
  });
});

import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Client } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAdminServer, type AdminServer } from '../../../daemon/admin/server.js';
import { openConfigStore, type ConfigStore } from '../../../daemon/store/config/config-store.js';
import { siteKeyVerdict } from '../../support/site-key-verdict.js';
import { tokenForBearer } from '../../../daemon/store/config/tokens.js';
import { AdminClient } from '../../../shared/admin-client.js';
import { WafctlError } from '../../../shared/errors.js';
import type { DaemonStatus } from '../../../shared/schemas/admin.js';

// Every test gets its own data dir, config store and admin server (a unix socket: cheap), so each
// one sets up the sites it needs and passes alone, in any order, and repeatedly.
let dir: string;
let store: ConfigStore;
let server: AdminServer;
let client: AdminClient;
let shutdowns: string[];
let shutdownRequested: Promise<void>;
let reloadAnswer: { ok: true } | { ok: false; message: string };

const status: DaemonStatus = {
  pid: process.pid, version: '0.0.0', started_at: new Date().toISOString(), uptime_s: 1, data_dir: '/x',
  ports: { edge: 1, edge_tls: 2, api: 3 }, api_url: 'https://127.0.0.1:3', ca_file: null, admin_socket: '/x/s',
  sites: 0, crs: { found: false, dir: '/nope' }, workers: 1, demo: null, edge: null, certificates: [],
  write_failures: { events: null, log: null },
  cluster: null,
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wafctl-admin-'));
  store = await openConfigStore(join(dir, 'config.json'));
  shutdowns = [];
  reloadAnswer = { ok: true };
  let shutdownSeen: () => void;
  shutdownRequested = new Promise((resolve) => (shutdownSeen = resolve));
  server = await createAdminServer({
    socketPath: join(dir, 'wafctl.sock'),
    logger: pino({ level: 'silent' }),
    deps: {
      store,
      now: () => new Date(),
      status: () => status,
      reload: async () => reloadAnswer,
      requestShutdown: (reason) => { shutdowns.push(reason); shutdownSeen(); },
    },
  });
  await server.listen();
  client = new AdminClient(join(dir, 'wafctl.sock'));
});
afterEach(async () => {
  await client.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** The site most tests work on: example.test with the alias www.example.test. */
async function addExample() {
  return client.addSite({ domain: 'Example.TEST', origin: 'http://127.0.0.1:8081', aliases: ['www.example.test'] });
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return error instanceof WafctlError ? `${error.code}: ${error.message}` : String(error);
  }
}

describe('admin socket', () => {
  it('is a unix socket with mode 0600', async () => {
    const info = await stat(join(dir, 'wafctl.sock'));
    expect(info.isSocket()).toBe(true);
    expect(info.mode & 0o777).toBe(0o600);
  });

  it('adds a site, returns its key once, and stores only the hash', async () => {
    const { site, api_key } = await addExample();
    expect(site).toMatchObject({ domain: 'example.test', aliases: ['www.example.test'], plan: 'free', status: 'active', has_key: true });
    expect(api_key).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(JSON.stringify(site)).not.toContain('hash');
    const file = await readFile(join(dir, 'config.json'), 'utf8');
    expect(file).not.toContain(api_key);
    expect(siteKeyVerdict(store.snapshot(), api_key)).toBe('ok');
    expect(await client.getSite('example.test')).toEqual(site);
    expect(await client.getSite('www.example.test')).toEqual(site);
  });

  it('refuses every bad site input with a clear error and changes nothing', async () => {
    await addExample();
    const before = await readFile(join(dir, 'config.json'), 'utf8');
    const cases: Array<[Promise<unknown>, RegExp]> = [
      [client.addSite({ domain: 'not a domain', origin: 'http://127.0.0.1:1' }), /^validation_error: domain: /],
      [client.addSite({ domain: 'http://x.test', origin: 'http://127.0.0.1:1' }), /^validation_error: domain: /],
      [client.addSite({ domain: 'ok.test', origin: 'ftp://127.0.0.1' }), /^validation_error: origin: must be an http/],
      [client.addSite({ domain: 'ok.test', origin: 'not a url' }), /^validation_error: origin: /],
      [client.addSite({ domain: 'ok.test', origin: 'http://127.0.0.1:1', plan: 'gold' as 'free' }), /^validation_error: plan: /],
      [client.addSite({ domain: 'example.test', origin: 'http://127.0.0.1:1' }), /^duplicate: example\.test is already the domain/],
      [client.addSite({ domain: 'other.test', origin: 'http://127.0.0.1:1', aliases: ['www.example.test'] }), /^duplicate: www\.example\.test is already an alias/],
      [client.addSite({ domain: 'ok.test', origin: 'http://127.0.0.1:1', aliases: ['bad_alias!'] }), /^validation_error: aliases\.0: /],
      [client.updateSite('example.test', { plan: 'platinum' as 'free' }), /^validation_error: plan: /],
      [client.updateSite('example.test', {}), /^validation_error: /],
      [client.updateSite('nope.test', { plan: 'advanced' }), /^not_found: no site nope\.test/],
      [client.getSite('nope.test'), /^not_found: /],
      [client.siteKey('nope.test'), /^not_found: /],
      [client.disableSite('nope.test'), /^not_found: /],
      [client.revokeToken(999), /^not_found: no token with id 999/],
      [client.revokeToken('abc'), /^validation_error: /],
      [client.createToken(''), /^validation_error: name: /],
      [client.setApiAccess('yes' as unknown as boolean), /^validation_error: api_access: /],
    ];
    for (const [promise, expected] of cases) expect(await codeOf(promise)).toMatch(expected);
    expect(await readFile(join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it('answers bad JSON, unknown routes and wrong methods in the envelope', async () => {
    await addExample();
    const raw = new Client('http://localhost', { socketPath: join(dir, 'wafctl.sock') });
    const bad = await raw.request({ method: 'POST', path: '/admin/sites', headers: { 'content-type': 'application/json' }, body: '{"domain":' });
    expect(bad.statusCode).toBe(400);
    expect(await bad.body.json()).toMatchObject({ success: false, error: 'bad_request' });
    const unknown = await raw.request({ method: 'GET', path: '/admin/nothing' });
    expect(unknown.statusCode).toBe(404);
    expect(await unknown.body.json()).toMatchObject({ success: false, error: 'not_found' });
    const wrong = await raw.request({ method: 'PUT', path: '/admin/sites/example.test' });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('DELETE, GET, HEAD, PATCH');
    expect(await wrong.body.json()).toMatchObject({ success: false, error: 'method_not_allowed' });
    await raw.close();
  });

  it('sets origin, plan and aliases, disables, enables and soft-deletes', async () => {
    await addExample();
    const updated = await client.updateSite('example.test', { origin: 'https://origin.example.test:8443/', plan: 'advanced', aliases: [] });
    expect(updated).toMatchObject({ origin: 'https://origin.example.test:8443', plan: 'advanced', aliases: [] });
    expect((await client.disableSite('example.test')).status).toBe('inactive');
    expect((await client.enableSite('example.test')).status).toBe('active');
    await client.addSite({ domain: 'gone.test', origin: 'http://127.0.0.1:2' });
    expect((await client.deleteSite('gone.test')).status).toBe('deleted');
    expect((await client.listSites()).map((s) => s.domain)).toEqual(['example.test']);
    expect((await client.listSites({ all: true })).map((s) => s.domain)).toEqual(['example.test', 'gone.test']);
    expect(await codeOf(client.enableSite('gone.test'))).toMatch(/^site_deleted: /);
    expect(await codeOf(client.siteKey('gone.test'))).toMatch(/^site_deleted: /);
  });

  it('regenerating a key invalidates the old one at once', async () => {
    await addExample();
    const { api_key: first } = await client.siteKey('example.test');
    const { api_key: second } = await client.siteKey('example.test');
    expect(second).not.toBe(first);
    expect(siteKeyVerdict(store.snapshot(), first)).toBe('invalid_api_key');
    expect(siteKeyVerdict(store.snapshot(), second)).toBe('ok');
  });

  it('manages api_access and ingestion tokens', async () => {
    expect(await client.getAccount()).toEqual({ id: 1, name: 'default', api_access: true });
    const created = await client.createToken('vector');
    expect(created.token).toMatch(/^wfi_[A-Za-z0-9]{40}$/);
    expect(await readFile(join(dir, 'config.json'), 'utf8')).not.toContain(created.token);
    expect(await client.listTokens()).toEqual([{ id: created.id, name: 'vector', created_at: created.created_at, last_used_at: null }]);
    expect(tokenForBearer(store.snapshot(), created.token)).toMatchObject({ ok: true });
    expect(await client.setApiAccess(false)).toMatchObject({ api_access: false });
    expect(tokenForBearer(store.snapshot(), created.token)).toEqual({ ok: false, reason: 'api_access_disabled' });
    await client.setApiAccess(true);
    expect(await client.revokeToken(created.id)).toEqual({ id: created.id, revoked: true });
    expect(await client.listTokens()).toEqual([]);
    expect(tokenForBearer(store.snapshot(), created.token)).toEqual({ ok: false, reason: 'invalid_token' });
  });

  it('status, reload (ok and refused) and shutdown', async () => {
    expect(await client.status()).toEqual(status);
    expect(await client.reload()).toEqual({ reloaded: true });
    reloadAnswer = { ok: false, message: 'config file /x/config.json is invalid: sites.0.origin: bad' };
    expect(await codeOf(client.reload())).toMatch(/^config_invalid: config file \/x\/config.json is invalid/);
    expect(await client.shutdown()).toEqual({ stopping: true });
    await shutdownRequested; // asked for once the answer is sent
    expect(shutdowns).toEqual(['admin shutdown']);
  });

  it('a client with no daemon behind the socket gets daemon_unreachable', async () => {
    const lonely = new AdminClient(join(dir, 'no.sock'));
    expect(await codeOf(lonely.status())).toMatch(/^daemon_unreachable: cannot reach the wafctl daemon at .*no\.sock: no daemon is listening/);
    await lonely.close();
  });
});

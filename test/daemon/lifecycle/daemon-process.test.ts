import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { siteKeyVerdict } from '../../support/site-key-verdict.js';
import { AdminClient } from '../../../shared/admin-client.js';
import { daemonEntry, readDaemonStatus, stopDaemon } from '../../../shared/daemon-launcher.js';
import { WafctlError } from '../../../shared/errors.js';
import { ConfigSchema } from '../../../shared/schemas/config.js';
import { DaemonHarness, FREE_PORTS, processExists, waitUntil } from './daemon-harness.js';

const harness = new DaemonHarness();
afterAll(() => harness.cleanup());

function httpsGet(url: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { ca, agent: false }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the daemon as a real process', { timeout: 90_000 }, () => {
  it('starts on free ports, reports every listener, and serves them', async () => {
    const dir = await harness.tempDir();
    const result = await harness.start(dir);
    if (!result.ok) throw new Error(result.reason);
    const { status } = result;
    expect(status.ports.edge).toBeGreaterThan(0);
    expect(status.ports.edge_tls).toBeGreaterThan(0);
    expect(status.ports.api).toBeGreaterThan(0);
    expect(status).toMatchObject({ data_dir: dir, admin_socket: join(dir, 'wafctl.sock'), ca_file: join(dir, 'tls', 'ca.crt'), sites: 0, demo: null });
    expect(status.api_url).toBe(`https://127.0.0.1:${status.ports.api}`);
    expect(status.crs.dir).toBe('/usr/share/modsecurity-crs');
    expect(status.crs.found).toBe(existsSync('/usr/share/modsecurity-crs/rules'));
    expect(Number((await readFile(join(dir, 'wafctl.pid'), 'utf8')).trim())).toBe(status.pid);
    for (const [file, mode] of [['', 0o700], ['config.json', 0o600], ['wafctl.sock', 0o600], ['tls/server.key', 0o600], ['tls/ca.key', 0o600], ['daemon.log', 0o600]] as const) {
      expect([file, (await stat(join(dir, file))).mode & 0o777]).toEqual([file, mode]);
    }
    const ca = await readFile(status.ca_file!, 'utf8');
    expect(await httpsGet(`${status.api_url}/api/v1/nope`, ca)).toMatchObject({ status: 404, body: expect.stringContaining('"error":"not_found"') });
    const plain = await fetch(`http://127.0.0.1:${status.ports.api}/api/v1/connect`);
    expect(plain.status).toBe(400);
    expect(await plain.json()).toMatchObject({ success: false, error: 'https_required' });
    // The edge answers: no site has the host 127.0.0.1, so 421.
    const edge = await fetch(`http://127.0.0.1:${status.ports.edge}/`);
    expect(edge.status).toBe(421);
    await edge.text();
    expect(await readDaemonStatus(status.admin_socket)).toMatchObject({ pid: status.pid, ports: status.ports });
  });

  it('refuses a second daemon on the same data dir, naming the running pid', async () => {
    const dir = await harness.tempDir();
    const first = await harness.start(dir);
    if (!first.ok) throw new Error(first.reason);
    const second = await harness.start(dir);
    expect(second).toEqual({ ok: false, reason: `wafctl daemon is already running (pid ${first.status.pid})` });
    expect(processExists(first.status.pid)).toBe(true);
    expect(await readDaemonStatus(first.status.admin_socket)).toMatchObject({ pid: first.status.pid });
  });

  it('a port in use stops the start with one line naming the port, and leaves no pid file', async () => {
    const blocker = createServer();
    blocker.listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const port = (blocker.address() as { port: number }).port;
    try {
      const dir = await harness.tempDir();
      const api = await harness.start(dir, ['--api-port', String(port)]);
      expect(api).toEqual({ ok: false, reason: `api port ${port} is already in use on 127.0.0.1 (choose another with --api-port)` });
      const edge = await harness.start(dir, ['--edge-port', String(port)]);
      expect(edge).toEqual({ ok: false, reason: `edge port ${port} is already in use on 127.0.0.1 (choose another with --edge-port)` });
      expect(existsSync(join(dir, 'wafctl.pid'))).toBe(false);
      expect(existsSync(join(dir, 'wafctl.sock'))).toBe(false);
    } finally {
      blocker.close();
    }
  });

  it('never removes the live admin socket of a daemon on another data dir', async () => {
    const first = await harness.start(await harness.tempDir());
    if (!first.ok) throw new Error(first.reason);
    const dir = await harness.tempDir();
    const second = await harness.start(dir, ['--admin-socket', first.status.admin_socket]);
    expect(second).toEqual({ ok: false, reason: `admin socket ${first.status.admin_socket} is in use by another running daemon (choose another with --admin-socket)` });
    expect(await readDaemonStatus(first.status.admin_socket)).toMatchObject({ pid: first.status.pid });
    const missing = await harness.start(dir, ['--admin-socket', join(dir, 'no', 'such', 'dir.sock')]);
    expect(missing).toEqual({ ok: false, reason: `admin socket ${join(dir, 'no', 'such', 'dir.sock')} cannot be created: ${join(dir, 'no', 'such')} is not a directory` });
  });

  it('refuses a corrupt config.json, naming it, and never overwrites it', async () => {
    const dir = await harness.tempDir();
    await writeFile(join(dir, 'config.json'), '{"schema_version": 1, "sites": [');
    const result = await harness.start(dir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toContain(join(dir, 'config.json'));
    expect(result.reason).toContain('not valid JSON');
    expect(result.reason.split('\n')).toHaveLength(1);
    expect(await readFile(join(dir, 'config.json'), 'utf8')).toBe('{"schema_version": 1, "sites": [');
  });

  it('refuses a config.json that fails the schema, naming the issue path', async () => {
    const dir = await harness.tempDir();
    await writeFile(join(dir, 'config.json'), JSON.stringify({ schema_version: 1, next_ids: { account: 2, site: 1, token: 1 }, accounts: [], sites: [], tokens: [] }));
    const result = await harness.start(dir);
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/config\.json is invalid: accounts: must hold the default account/) });
  });

  it('refuses a bad flag, a data dir that cannot be created, and one that is not writable', async () => {
    const dir = await harness.tempDir();
    expect(await harness.start(dir, ['--workers', 'many'])).toEqual({ ok: false, reason: '--workers: must be a whole number from 1 to 256, got "many"' });
    await writeFile(join(dir, 'file'), '');
    expect(await harness.start(join(dir, 'file', 'data'))).toMatchObject({ ok: false, reason: expect.stringMatching(/data dir .*file\/data cannot be created: a parent path is not a directory/) });

    // Permissions do not stop root: it has CAP_DAC_OVERRIDE. So as root the daemon runs with that
    // capability (and DAC_READ_SEARCH) dropped from its bounding set by util-linux's setpriv: still
    // uid 0, so it reads this checkout wherever the clone is (as `nobody` it could not read one in
    // a 0700 dir, and the test hung), but a 0500 dir is now read-only to it as to anyone else.
    const locked = join(dir, 'locked');
    await mkdir(locked, { mode: 0o500 });
    const daemonArgs = [daemonEntry(), '--data-dir', locked, ...FREE_PORTS];
    const asRoot = process.getuid?.() === 0;
    const child = asRoot
      ? spawn('setpriv', ['--bounding-set=-dac_override,-dac_read_search', process.execPath, ...daemonArgs], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] })
      : spawn(process.execPath, daemonArgs, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    const messages: unknown[] = [];
    child.on('message', (message) => messages.push(message));
    let stderr = '';
    child.stderr!.on('data', (text: Buffer) => { stderr += text.toString(); });
    // 'close' comes after the last message and the exit, whatever their order (no wait can hang).
    const ended = await Promise.race([
      once(child, 'close').then(([code]) => ({ code })),
      once(child, 'error').then(([error]) => ({ error: `cannot run ${asRoot ? 'setpriv (util-linux)' : 'node'}: ${(error as Error).message}` })),
    ]);
    expect(ended, stderr).toEqual({ code: 1 });
    expect(messages).toEqual([{ type: 'error', message: `data dir ${locked} is not writable: permission denied` }]);
  });

  it('stops cleanly on SIGTERM (socket and pid file removed) and a restart keeps the data', async () => {
    const dir = await harness.tempDir();
    const first = await harness.start(dir);
    if (!first.ok) throw new Error(first.reason);
    const client = new AdminClient(first.status.admin_socket);
    const { site, api_key } = await client.addSite({ domain: 'example.test', origin: 'http://127.0.0.1:8081' });
    const token = await client.createToken('vector');
    await client.close();
    expect(await readFile(join(dir, 'config.json'), 'utf8')).not.toContain(api_key);

    process.kill(first.status.pid, 'SIGTERM');
    await waitUntil(() => !processExists(first.status.pid));
    expect(existsSync(join(dir, 'wafctl.sock'))).toBe(false);
    expect(existsSync(join(dir, 'wafctl.pid'))).toBe(false);
    expect(await readFile(join(dir, 'daemon.log'), 'utf8')).toMatch(/"reason":"SIGTERM","msg":"stopping"[\s\S]*"msg":"stopped"/);

    const second = await harness.start(dir);
    if (!second.ok) throw new Error(second.reason);
    expect(second.status.sites).toBe(1);
    const again = new AdminClient(second.status.admin_socket);
    expect(await again.getSite('example.test')).toEqual(site);
    expect((await again.listTokens()).map((t) => t.id)).toEqual([token.id]);
    await again.close();
    const stored = ConfigSchema.parse(JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')));
    expect(siteKeyVerdict(stored, api_key)).toBe('ok');
  });

  it('takes over the stale pid file and socket of a killed daemon', async () => {
    const dir = await harness.tempDir();
    const first = await harness.start(dir);
    if (!first.ok) throw new Error(first.reason);
    process.kill(first.status.pid, 'SIGKILL');
    await waitUntil(() => !processExists(first.status.pid));
    expect(existsSync(join(dir, 'wafctl.pid'))).toBe(true);
    const second = await harness.start(dir);
    if (!second.ok) throw new Error(second.reason);
    expect(second.status.pid).not.toBe(first.status.pid);
    expect(Number((await readFile(join(dir, 'wafctl.pid'), 'utf8')).trim())).toBe(second.status.pid);
  });

  it('stops over the admin socket, and then the client says the daemon is unreachable', async () => {
    const dir = await harness.tempDir();
    const started = await harness.start(dir);
    if (!started.ok) throw new Error(started.reason);
    expect(await stopDaemon(started.status.admin_socket)).toEqual({ ok: true, pid: started.status.pid });
    expect(processExists(started.status.pid)).toBe(false);
    expect(await stopDaemon(started.status.admin_socket)).toMatchObject({ ok: false, code: 'daemon_unreachable' });
    const error = await readDaemonStatus(started.status.admin_socket).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WafctlError);
    expect((error as WafctlError).code).toBe('daemon_unreachable');
  });

  it('reload picks up an edited config.json and refuses a broken one while serving on', async () => {
    const dir = await harness.tempDir();
    const started = await harness.start(dir);
    if (!started.ok) throw new Error(started.reason);
    const client = new AdminClient(started.status.admin_socket);
    const file = join(dir, 'config.json');
    const doc = JSON.parse(await readFile(file, 'utf8'));
    doc.accounts[0].api_access = false;
    await writeFile(file, JSON.stringify(doc));
    // A keep-alive API connection opened before the reload is still the one used after it.
    const agent = new HttpsAgent({ keepAlive: true, maxSockets: 1, ca: await readFile(started.status.ca_file!, 'utf8') });
    const viaAgent = () => new Promise<boolean>((resolve, reject) => {
      const req = httpsRequest(`${started.status.api_url}/api/v1/nope`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(req.reusedSocket));
      });
      req.on('error', reject);
      req.end();
    });
    expect(await viaAgent()).toBe(false);
    expect(await client.reload()).toMatchObject({ reloaded: true, crs: { switched: false } }); // the CRS did not change
    expect(await viaAgent()).toBe(true);
    agent.destroy();
    expect((await client.getAccount()).api_access).toBe(false);
    await writeFile(file, '{oops');
    const refused = await client.reload().catch((e: WafctlError) => e);
    expect(refused).toMatchObject({ code: 'config_invalid', message: expect.stringContaining('not valid JSON') });
    expect((await client.getAccount()).api_access).toBe(false);
    await writeFile(join(dir, 'daemon.json'), '{"no_such_setting": 1}');
    await writeFile(file, JSON.stringify(doc));
    expect(await client.reload().catch((e: WafctlError) => e.code)).toBe('config_invalid');
    // SIGHUP reloads too.
    await writeFile(join(dir, 'daemon.json'), '{}');
    doc.accounts[0].api_access = true;
    await writeFile(file, JSON.stringify(doc));
    process.kill(started.status.pid, 'SIGHUP');
    const deadline = Date.now() + 10_000;
    while (!(await client.getAccount()).api_access && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect((await client.getAccount()).api_access).toBe(true);
    await client.close();
  });
});

// Secrets and transport, against the real daemon (started by the wafctl binary): keys and tokens
// only as hashes at rest and never in the log (at trace level, with the headers sent on purpose,
// right and wrong), data files 0600 and directories 0700, the admin socket 0600, and TLS 1.2+ with
// forward-secret AEAD suites on the API and the edge's HTTPS port (older clients refused by the
// server's own alert, not by the client library).
import { randomBytes } from 'node:crypto';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { Agent, request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSandbox, quickStartFlags, stopAll, type E2eDaemon } from '../e2e/daemon-harness.js';

interface Status { api_url: string; ca_file: string; admin_socket: string; data_dir: string; ports: { edge: number; edge_tls: number; api: number } }

let d: E2eDaemon;
let status: Status;
let agent: Agent;
let key: string;
let token: string;

async function json<T>(...args: string[]): Promise<T> {
  const result = await d.wafctl('--json', ...args);
  if (result.code !== 0) throw new Error(`wafctl ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

function https(method: string, path: string, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(new URL(path, status.api_url), { method, agent, headers: { ...headers, ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function handshake(port: number, options: tls.ConnectionOptions): Promise<{ ok: true; protocol: string; cipher: string } | { ok: false; code: string }> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false, servername: 'localhost', ...options }, () => {
      resolve({ ok: true, protocol: socket.getProtocol() ?? '', cipher: socket.getCipher().name });
      socket.destroy();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve({ ok: false, code: error.code ?? error.message }));
  });
}

beforeAll(async () => {
  d = await newSandbox();
  d.box.env.WAFCTL_LOG_LEVEL = 'trace';
  const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)));
  expect(start.code, start.stderr).toBe(0);
  status = await json<Status>('daemon', 'status');
  agent = new Agent({ ca: await readFile(status.ca_file, 'utf8'), keepAlive: false });
  key = (await json<{ api_key: string }>('site', 'add', 'secrets.example.test', '--origin', 'http://127.0.0.1:9')).api_key;
  token = (await json<{ token: string }>('token', 'create', 'shipper')).token;
}, 180_000);

afterAll(() => stopAll(), 60_000);

describe('secrets at rest and in logs', { timeout: 60_000 }, () => {
  it('config.json holds only hashes of the site key and the ingestion token', async () => {
    const config = await readFile(join(status.data_dir, 'config.json'), 'utf8');
    expect(config).not.toContain(key);
    expect(config).not.toContain(token);
    expect(config).toMatch(/"key_hash": ?"[0-9a-f]{64}"/);
  });

  it('requests carrying keys and tokens, right and wrong, leave no trace of them in the daemon log', async () => {
    const wrongKey = randomBytes(32).toString('hex');
    const wrongToken = `wfi_${'A'.repeat(40)}`;
    const garbage = `not-a-key-${randomBytes(6).toString('hex')}`;
    const event = JSON.stringify([{ timestamp_ms: Date.now(), host: 'secrets.example.test', client_ip: '203.0.113.9', uri: '/', method: 'GET', waf_file: 'x.conf', rule_id: '1', severity: 'NOTICE', msg: 'test' }]);
    const statuses = [
      await https('GET', '/api/v1/connect', { 'x-service-key': key }),
      await https('GET', '/api/v1/connect', { 'x-service-key': wrongKey }),
      await https('GET', '/api/v1/connect', { 'x-service-key': garbage, authorization: `Bearer ${token}` }),
      await https('POST', '/api/vector/waf', { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, event),
      await https('POST', '/api/vector/waf', { authorization: `Bearer ${wrongToken}`, 'content-type': 'application/json' }, event),
      await https('POST', '/api/vector/waf', { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, '{"broken'),
      await https('GET', `/api/v1/nowhere?api_key=${garbage}`, { 'x-service-key': key }),
    ];
    expect(statuses).toEqual([200, 401, 401, 200, 401, 400, 404]);
    const log = await readFile(join(status.data_dir, 'daemon.log'), 'utf8');
    // The log is at trace level and did record these requests (ingestion requests are not logged one
    // by one, only their failures)...
    expect(log).toContain('/api/v1/connect');
    expect(log).toContain('/api/v1/nowhere?api_key=[redacted]');
    // ...but none of the secrets, in full or in part.
    for (const secret of [key, wrongKey, token, wrongToken, garbage]) {
      expect(log).not.toContain(secret);
      expect(log).not.toContain(secret.slice(0, 16));
    }
  });
});

describe('file modes', { timeout: 60_000 }, () => {
  it('the data dir and every directory under it are 0700, every file 0600', async () => {
    const problems: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        const info = await lstat(path);
        const mode = info.mode & 0o777;
        if (entry.isDirectory()) {
          if (mode !== 0o700) problems.push(`${path}: dir ${mode.toString(8)}`);
          await walk(path);
        } else if (entry.isSocket()) {
          if (mode & 0o077) problems.push(`${path}: socket ${mode.toString(8)}`);
        } else if (mode & 0o077) {
          problems.push(`${path}: file ${mode.toString(8)}`);
        }
      }
    };
    expect((await lstat(status.data_dir)).mode & 0o777).toBe(0o700);
    await walk(status.data_dir);
    expect(problems).toEqual([]);
  });

  it('the admin socket is 0600', async () => {
    const info = await lstat(status.admin_socket);
    expect(info.isSocket()).toBe(true);
    expect(info.mode & 0o777).toBe(0o600);
  });
});

describe('TLS policy', { timeout: 60_000 }, () => {
  const legacy = { ciphers: 'DEFAULT@SECLEVEL=0' };
  it.each([['API', 'api'], ['edge HTTPS', 'edge_tls']] as const)('%s: TLS 1.0 and 1.1 clients are refused by the server', async (_name, which) => {
    const port = status.ports[which];
    for (const version of ['TLSv1', 'TLSv1.1'] as const) {
      const r = await handshake(port, { ...legacy, minVersion: version, maxVersion: version });
      expect(r).toEqual({ ok: false, code: 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION' });
    }
  });

  it.each([['API', 'api'], ['edge HTTPS', 'edge_tls']] as const)('%s: TLS 1.2 without forward secrecy or with CBC is refused; ECDHE + GCM and TLS 1.3 are served', async (_name, which) => {
    const port = status.ports[which];
    const weak = await handshake(port, { maxVersion: 'TLSv1.2', ciphers: 'AES128-SHA:AES256-SHA:AES128-GCM-SHA256:ECDHE-RSA-AES128-SHA:ECDHE-ECDSA-AES128-SHA' });
    expect(weak).toEqual({ ok: false, code: 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE' });
    const modern = await handshake(port, { maxVersion: 'TLSv1.2' });
    expect(modern).toMatchObject({ ok: true, protocol: 'TLSv1.2' });
    expect((modern as { cipher: string }).cipher).toMatch(/^ECDHE-(RSA|ECDSA)-(AES\d+-GCM-SHA\d+|CHACHA20-POLY1305)$/);
    expect(await handshake(port, {})).toMatchObject({ ok: true, protocol: 'TLSv1.3' });
  });
});

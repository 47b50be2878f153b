import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { AdminClient } from '../../../shared/admin-client.js';
import { stopDaemon } from '../../../shared/daemon-launcher.js';
import { DaemonHarness } from './daemon-harness.js';

// The wired daemon: management API and ingestion over real HTTPS, keys and tokens from the admin
// socket, events in the event store, all surviving a restart.

const harness = new DaemonHarness();
afterAll(() => harness.cleanup());

async function call(base: string, ca: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const dispatcher = new Agent({ connect: { ca } });
  try {
    const res = await request(`${base}${path}`, {
      method: method as 'GET',
      dispatcher,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.statusCode, json: (await res.body.json()) as Record<string, any> };
  } finally {
    await dispatcher.close();
  }
}

describe('daemon with its API parts', { timeout: 90_000 }, () => {
  it('site keys, tokens, ingestion and analytics work end to end and survive a restart', async () => {
    const dir = await harness.tempDir();
    const first = await harness.start(dir);
    if (!first.ok) throw new Error(first.reason);
    const ca = await readFile(first.status.ca_file!, 'utf8');
    const api = first.status.api_url;
    const admin = new AdminClient(first.status.admin_socket);
    const { api_key } = await admin.addSite({ domain: 'example.test', origin: 'http://127.0.0.1:8081' });
    const { token } = await admin.createToken('vector');

    const connect = await call(api, ca, 'GET', '/api/v1/connect', { 'x-service-key': api_key });
    expect(connect).toMatchObject({ status: 200, json: { success: true, data: { connected: true, domain: 'example.test', plan_tier: 'free' } } });
    expect(await call(api, ca, 'GET', '/api/v1/connect', {})).toMatchObject({ status: 401, json: { error: 'missing_api_key' } });

    const entry = { timestamp: Math.floor(Date.now() / 1000), host: 'example.test', client_ip: '203.0.113.5', uri: '/', method: 'GET', status: 403, bytes_sent: 10 };
    expect(await call(api, ca, 'POST', '/api/vector/access', { authorization: `Bearer ${token}` }, [entry, entry])).toMatchObject({ status: 200, json: { processed: 2 } });
    expect((await admin.listTokens())[0].last_used_at).not.toBeNull();

    const { api_key: fresh } = await admin.siteKey('example.test');
    expect(await call(api, ca, 'GET', '/api/v1/connect', { 'x-service-key': api_key })).toMatchObject({ status: 401, json: { error: 'invalid_api_key' } });
    await admin.disableSite('example.test');
    expect(await call(api, ca, 'GET', '/api/v1/connect', { 'x-service-key': fresh })).toMatchObject({ status: 403, json: { error: 'site_inactive' } });
    await admin.enableSite('example.test');
    await admin.setApiAccess(false);
    expect((await call(api, ca, 'POST', '/api/vector/access', { authorization: `Bearer ${token}` }, entry)).status).toBe(401);
    await admin.setApiAccess(true);
    await admin.close();

    expect(await stopDaemon(first.status.admin_socket)).toMatchObject({ ok: true });
    const second = await harness.start(dir);
    if (!second.ok) throw new Error(second.reason);
    const analytics = await call(second.status.api_url, ca, 'GET', '/api/v1/analytics?period=24h', { 'x-service-key': fresh });
    expect(analytics).toMatchObject({ status: 200, json: { data: { total_requests: 2, requests_blocked: 2 } } });
    const again = new AdminClient(second.status.admin_socket);
    await again.revokeToken((await again.listTokens())[0].id);
    await again.close();
    expect((await call(second.status.api_url, ca, 'POST', '/api/vector/access', { authorization: `Bearer ${token}` }, entry)).status).toBe(401);

    // The log saw every one of these requests and holds none of the secrets.
    const log = await readFile(join(dir, 'daemon.log'), 'utf8');
    expect(log).toContain('/api/v1/connect');
    for (const secret of [api_key, fresh, token]) expect(log).not.toContain(secret);
  });
});

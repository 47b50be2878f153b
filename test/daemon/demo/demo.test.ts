import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AdminClient } from '../../../shared/admin-client.js';
import { stopDaemon } from '../../../shared/daemon-launcher.js';
import { DaemonHarness } from '../lifecycle/daemon-harness.js';

const harness = new DaemonHarness();
afterAll(() => harness.cleanup());

describe('--demo', { timeout: 90_000 }, () => {
  it('starts the demo origin, creates demo.localhost once, and keeps it across restarts', async () => {
    const dir = await harness.tempDir();
    const first = await harness.start(dir, ['--demo']);
    if (!first.ok) throw new Error(first.reason);
    const demo = first.status.demo!;
    expect(demo.domain).toBe('demo.localhost');
    expect(demo.try).toHaveLength(4);
    for (const line of demo.try) expect(line).toContain(`-H 'Host: demo.localhost' `);
    expect(demo.try[0]).toContain(`http://127.0.0.1:${first.status.ports.edge}/`);

    const home = await fetch(`${demo.origin}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('wafctl demo site');
    const login = await fetch(`${demo.origin}/wp-login.php`);
    expect(await login.text()).toContain('name="loginform"');
    const echo = await fetch(`${demo.origin}/echo?x=1`, { method: 'POST', body: 'hello', headers: { 'x-test': 'yes' } });
    expect(await echo.json()).toMatchObject({ method: 'POST', url: '/echo?x=1', body: 'hello', headers: { 'x-test': 'yes' } });

    const client = new AdminClient(first.status.admin_socket);
    const site = await client.getSite('demo.localhost');
    expect(site.origin).toBe(demo.origin);
    await client.close();

    await stopDaemon(first.status.admin_socket);
    const second = await harness.start(dir, ['--demo']);
    if (!second.ok) throw new Error(second.reason);
    const again = new AdminClient(second.status.admin_socket);
    const sites = await again.listSites({ all: true });
    expect(sites.map((s) => [s.id, s.domain])).toEqual([[site.id, 'demo.localhost']]);
    expect(sites[0].origin).toBe(second.status.demo!.origin);
    await again.close();
    const config = await readFile(join(dir, 'config.json'), 'utf8');
    expect(JSON.parse(config).sites).toHaveLength(1);
  });
});

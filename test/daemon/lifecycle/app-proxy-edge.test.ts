import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type DaemonApp } from '../../../daemon/app.js';
import { parseDaemonArgv, resolveDaemonOptions } from '../../../daemon/options/resolve-options.js';
import { addSite, setSiteStatus } from '../../../daemon/store/config/sites.js';
import type { DaemonStatus } from '../../../shared/schemas/admin.js';

// The daemon assembled in-process with its proxy edge: sites from the config store reach the edge,
// and changes apply without a restart.

let dir: string;
let app: DaemonApp;
let status: DaemonStatus;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wafctl-app-'));
  const options = await resolveDaemonOptions(parseDaemonArgv(['--data-dir', dir, '--edge-port', '0', '--edge-tls-port', '0', '--api-port', '0', '--demo', '--workers', '1']), {});
  app = await buildApp({ options });
  status = await app.listen();
});
afterAll(async () => {
  await app?.stop('test done');
  await rm(dir, { recursive: true, force: true });
});

// fetch (undici) sends its own Host header; node:http sends the one we give.
function get(port: number, host: string, path = '/'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host }, agent: false }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('buildApp with the proxy edge', { timeout: 60_000 }, () => {
  it('forwards demo.localhost to the demo origin and refuses unknown hosts', async () => {
    const edge = status.ports.edge;
    const page = await get(edge, 'demo.localhost');
    expect(page.status).toBe(200);
    expect(page.body).toContain('wafctl demo site');
    const echo = await get(edge, 'demo.localhost', '/echo');
    const seen = JSON.parse(echo.body) as { headers: Record<string, string> };
    expect(seen.headers.host).toBe('demo.localhost');
    expect(seen.headers['x-forwarded-for']).toBeDefined();
    expect((await get(edge, 'nobody.test')).status).toBe(421);
  });

  it('applies a config change at once: a disabled site stops reaching its origin', async () => {
    const now = new Date().toISOString();
    await app.store.update((draft) => addSite(draft, { domain: 'second.test', origin: status.demo!.origin, aliases: [], plan: 'free' }, now));
    expect((await get(status.ports.edge, 'second.test')).status).toBe(200);
    await app.store.update((draft) => setSiteStatus(draft, 'second.test', 'inactive', now));
    expect((await get(status.ports.edge, 'second.test')).status).toBe(503);
  });
});

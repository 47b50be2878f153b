// The real daemon assembled in-process (buildApp: real config store, event store, HTTPS API
// listener, admin unix socket; no edge: no-edge.ts) in a temporary data dir, with one site, an
// ingestion token and the site's API key made through the admin socket like an operator would.
// The clock is the test's: `skipMinute()` moves it past the rate-limit windows so a long fuzz run
// keeps reaching validation instead of drowning in 429s (429 stays a documented answer).
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { mkdtemp, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type DaemonApp } from '../../../daemon/app.js';
import { parseDaemonArgv, resolveDaemonOptions } from '../../../daemon/options/resolve-options.js';
import { AdminClient } from '../../../shared/admin-client.js';
import { noEdge } from './no-edge.js';
import type { DaemonStatus } from '../../../shared/schemas/admin.js';
import type { Endpoint } from './raw-http.js';

export const SITE_DOMAIN = 'fuzz.example.test';

export interface FuzzDaemon {
  app: DaemonApp;
  status: DaemonStatus;
  dir: string;
  api: Endpoint;
  admin: Endpoint;
  siteKey: string;
  token: string;
  /** Moves the daemon's clock one minute on: every fixed rate-limit window starts afresh. */
  skipMinute(): void;
  /** What a refused request must not change: config.json's bytes and the event segments' sizes. */
  fingerprint(): Promise<string>;
  stop(): Promise<void>;
}

export async function startFuzzDaemon(plan: 'free' | 'advanced' | 'enterprise' = 'enterprise'): Promise<FuzzDaemon> {
  const dir = await mkdtemp(join(tmpdir(), 'wafctl-rel-'));
  const crs = join(dir, 'no-crs');
  await mkdir(join(crs, 'rules'), { recursive: true });
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  const argv = ['--data-dir', join(dir, 'data'), '--edge-port', '0', '--edge-tls-port', '0', '--api-port', '0', '--workers', '1', '--crs-dir', crs];
  const options = await resolveDaemonOptions(parseDaemonArgv(argv), {});
  const app = await buildApp({ options, edgeFactory: noEdge, now });
  const status = await app.listen();
  const ca = await readFile(status.ca_file!, 'utf8');

  const client = new AdminClient(status.admin_socket);
  let siteKey: string;
  let token: string;
  try {
    siteKey = (await client.addSite({ domain: SITE_DOMAIN, origin: 'http://127.0.0.1:9', plan })).api_key;
    await client.setApiAccess(true);
    token = (await client.createToken('fuzz')).token;
  } finally {
    await client.close();
  }

  const eventsDir = app.paths.eventsDir;
  return {
    app,
    status,
    dir,
    api: { kind: 'tls', host: '127.0.0.1', port: status.ports.api, ca },
    admin: { kind: 'unix', path: status.admin_socket },
    siteKey,
    token,
    skipMinute: () => void (offsetMs += 61_000),
    async fingerprint() {
      // A token's last_used_at is bookkeeping of an accepted token, not something the request changed.
      const config = (await readFile(app.paths.config, 'utf8')).replace(/"last_used_at":\s*(?:null|"[^"]*")/g, '"last_used_at":-');
      const segments = await readdir(eventsDir).catch(() => [] as string[]);
      const sizes = await Promise.all(segments.filter((f) => f.endsWith('.jsonl')).sort().map(async (f) => `${f}:${(await stat(join(eventsDir, f))).size}`));
      return `${config}\n${sizes.join(',')}`;
    },
    async stop() {
      await app.stop('test done');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

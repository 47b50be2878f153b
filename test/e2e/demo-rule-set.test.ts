// README's first command on a machine with no Core Rule Set: `daemon start --demo` installs the
// newest CRS 4.x release (verified), has the daemon switch to it, and the demo's SQL injection line
// is refused; offline it says in one line how to get one and the demo still runs. Real daemons, the
// CLI as a real process, a local server answering as GitHub's releases API with a signed archive
// built from ../shared/crs4.
import { exec } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildArchive, FileServer, makeTestKey, sign, type TestKey } from '../crs/release-fixture.js';
import { newSandbox, quickStartFlags, stopAll, tempDir } from './daemon-harness.js';

const sh = promisify(exec);
let server: FileServer;
let key: TestKey;

beforeAll(async () => {
  key = await makeTestKey(await tempDir('demo-crs-'));
  const archive = await buildArchive();
  server = await new FileServer().start();
  server.listReleases([server.publishRelease('4.28.0', archive, await sign(archive, key))]);
}, 120_000);

afterAll(async () => {
  await stopAll();
  await server?.stop();
}, 60_000);

async function demo(releasesApi: string) {
  const d = await newSandbox();
  d.box.env.WAFCTL_CRS_TEST_KEY = key.publicFile;
  d.box.env.WAFCTL_CRS_RELEASES_API = releasesApi;
  // quickStartFlags gives an empty --crs-dir: no rule set, whatever this machine has installed.
  const start = await d.wafctl('daemon', 'start', '--demo', '--demo-port', '0', ...(await quickStartFlags(d.box)));
  return { d, start };
}

describe('the demo on a machine with no Core Rule Set', { timeout: 180_000 }, () => {
  it('installs the newest CRS 4.x release and runs it: the SQL injection line is refused', async () => {
    const { d, start } = await demo(server.url);
    expect(start.code, start.stderr).toBe(0);
    expect(start.stderr).toContain('installing the newest CRS 4.x release');
    expect(start.stderr).toContain('installed CRS 4.28.0');
    expect(start.stderr).toContain('the edge now runs CRS 4.28.0');
    expect(start.stderr).not.toMatch(/^warning: no rule set/m);
    const status = JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout);
    expect(status.crs).toMatchObject({ found: true, version: '4.28.0', source: 'installed' });
    const sqli = start.stdout.split('\n').map((l) => l.trim()).find((l) => l.includes('# SQL injection'));
    expect(sqli).toBeDefined();
    expect(/^HTTP\/1\.1 (\d{3})/.exec((await sh(sqli!, { shell: '/bin/sh' })).stdout)?.[1]).toBe('403');
  });

  it('offline: one line on how to get a rule set, and the demo runs without one', async () => {
    const closed = await new FileServer().start();
    await closed.stop(); // nothing listens there any more: connection refused, as offline
    const { d, start } = await demo(closed.url);
    expect(start.code, start.stderr).toBe(0);
    const warnings = start.stderr.split('\n').filter((l) => l.startsWith('warning: could not install a Core Rule Set'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('wafctl crs install --from FILE');
    expect(warnings[0]).toContain('apt-get install modsecurity-crs');
    const status = JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout);
    expect(status.crs).toMatchObject({ found: false });
  });
});

// The daemon runs the installed, selected CRS release and says so (daemon status, daemon check);
// without any rule set it still runs but says so loudly, and `daemon check` exits non-zero.
// Real daemons, the CLI as a real process, a real archive built from ../shared/crs4.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildArchive, makeTestKey, sign } from '../crs/release-fixture.js';
import { newSandbox, quickStartFlags, stopAll, tempDir } from './daemon-harness.js';

let archiveFile: string;
let keyFile: string;

beforeAll(async () => {
  const dir = await tempDir('crs-daemon-');
  const key = await makeTestKey(dir);
  keyFile = key.publicFile;
  const archive = await buildArchive();
  archiveFile = join(dir, 'coreruleset-4.28.0.tar.gz');
  writeFileSync(archiveFile, archive);
  writeFileSync(`${archiveFile}.asc`, await sign(archive, key));
});

afterAll(stopAll);

describe('the daemon and the installed CRS', () => {
  it('runs the selected installed release over --crs-dir, and daemon status and check say which', async () => {
    const d = await newSandbox();
    d.box.env.WAFCTL_CRS_TEST_KEY = keyFile;
    const install = await d.wafctl('crs', 'install', '--from', archiveFile);
    expect(install.code, install.stderr).toBe(0);
    // quickStartFlags points --crs-dir at an empty directory: the installed release must win.
    const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)));
    expect(start.code, start.stderr).toBe(0);
    expect(start.stdout).toContain(`CRS 4.28.0 (${join(d.box.dataDir, 'crs', '4.28.0')})`);

    const status = JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout);
    expect(status.crs).toEqual({ found: true, dir: join(d.box.dataDir, 'crs', '4.28.0'), version: '4.28.0', source: 'installed', plugins: [] });
    const check = await d.wafctl('daemon', 'check');
    expect(check.code, check.stderr).toBe(0);
    expect(check.stderr).toContain('ok: CRS 4.28.0');
  });

  it('runs without a rule set but says so loudly, and daemon check exits 1', async () => {
    const d = await newSandbox();
    const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)));
    expect(start.code, start.stderr).toBe(0);
    expect(start.stdout).toContain('NO RULE SET');
    expect(start.stderr).toMatch(/^warning: no rule set: .*`wafctl crs install`/m);

    const status = await d.wafctl('daemon', 'status');
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/core rule set\s+NO RULE SET: no Core Rule Set found/);
    expect(status.stderr).toMatch(/^warning: no rule set: /m);
    const json = JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout);
    expect(json.crs).toMatchObject({ found: false, version: null, source: 'crs-dir' });

    // Everywhere else a user looks: a site whose crs group is on says the rule set is missing.
    expect((await d.wafctl('site', 'add', 'nocrs.test', '--origin', 'http://127.0.0.1:9')).code).toBe(0);
    const site = await d.wafctl('site', 'show', 'nocrs.test');
    expect(site.code, site.stderr).toBe(0);
    expect(site.stderr).toMatch(/^warning: no rule set: /m);
    const rules = await d.wafctl('rules', 'show', '--site', 'nocrs.test');
    expect(rules.code, rules.stderr).toBe(0);
    expect(rules.stdout).toMatch(/groups\s+crs on, but NO RULE SET is installed/);
    expect(rules.stdout).not.toMatch(/crs on,\s+cms/);
    expect(rules.stderr).toMatch(/^warning: no rule set: /m);

    const check = await d.wafctl('daemon', 'check');
    expect(check.code).toBe(1);
    expect(check.stderr).toMatch(/^error: no_rule_set: the daemon runs no Core Rule Set/m);
    expect(check.stderr).toMatch(/^hint: .*wafctl crs install --from FILE.*modsecurity-crs/m);
  });
});

// contrib/systemd/wafctl.service: its ExecStart is a command line the real CLI parser accepts and
// turns into a daemon command line the daemon's own parser accepts, with the settings the unit and
// docs/production.md promise; and the settings the stop and reload path depend on are there.
// (systemd-analyze verify runs on the same file in systemd-verify.test.ts, system tier.)
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run.js';
import { parseDaemonArgv, resolveDaemonOptions } from '../../daemon/options/resolve-options.js';
import { harness } from '../cli/fakes.js';

export const UNIT_FILE = new URL('../../contrib/systemd/wafctl.service', import.meta.url);

/** The unit's [Service] settings, each key with every value it is given (in order). */
async function serviceSettings(): Promise<Map<string, string[]>> {
  const text = await readFile(UNIT_FILE, 'utf8');
  const settings = new Map<string, string[]>();
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('[')) { section = line; continue; }
    if (section !== '[Service]') continue;
    const eq = line.indexOf('=');
    const key = line.slice(0, eq);
    settings.set(key, [...(settings.get(key) ?? []), line.slice(eq + 1)]);
  }
  return settings;
}

function one(settings: Map<string, string[]>, key: string): string {
  const values = settings.get(key) ?? [];
  expect(values, key).toHaveLength(1);
  return values[0];
}

describe('contrib/systemd/wafctl.service', () => {
  it('runs `wafctl daemon start --foreground` with flags the CLI and the daemon both accept', async () => {
    const settings = await serviceSettings();
    const [binary, ...args] = one(settings, 'ExecStart').split(/\s+/);
    expect(binary).toMatch(/\/bin\/wafctl\.js$/);
    expect(args.slice(0, 3)).toEqual(['daemon', 'start', '--foreground']);

    const h = harness();
    expect(await runCli(args, h.deps), h.io.err()).toBe(0);
    const call = h.daemon.calls.find((c) => c.verb === 'foreground');
    expect(call).toBeDefined();

    // The daemon parses what the CLI hands it; the data dir comes from the unit's Environment=.
    const env = Object.fromEntries(one(settings, 'Environment').split(/\s+/).map((pair) => pair.split('=') as [string, string]));
    expect(env.WAFCTL_DATA_DIR).toBe('/var/lib/wafctl');
    const flags = parseDaemonArgv(call!.argv!.filter((_, i, all) => all[i] !== '--data-dir' && all[i - 1] !== '--data-dir'));
    const dataDir = await mkdtemp(join(tmpdir(), 'wafctl-unit-'));
    const options = await resolveDaemonOptions(flags, { WAFCTL_DATA_DIR: dataDir });
    expect(options).toMatchObject({ foreground: true, edgePort: 80, edgeTlsPort: 443, apiPort: 9443, listenHost: '0.0.0.0', dataDir });
  });

  it('keeps the data dir writable, binds low ports unprivileged, and stops with one signal', async () => {
    const settings = await serviceSettings();
    expect(one(settings, 'StateDirectory')).toBe('wafctl');
    expect(one(settings, 'ProtectSystem')).toBe('strict');
    expect(one(settings, 'AmbientCapabilities')).toBe('CAP_NET_BIND_SERVICE');
    expect(one(settings, 'CapabilityBoundingSet')).toBe('CAP_NET_BIND_SERVICE');
    expect(one(settings, 'User')).toBe('wafctl');
    // The CLI forwards SIGTERM to the daemon: systemd must not send the daemon a second one.
    expect(one(settings, 'KillMode')).toBe('mixed');
    expect(one(settings, 'ExecReload')).toBe('/bin/kill -HUP $MAINPID');
    // V8 writes and runs machine code: this setting would stop node at start.
    expect(settings.has('MemoryDenyWriteExecute')).toBe(false);
  });
});

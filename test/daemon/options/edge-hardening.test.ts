import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { edgeHardeningOf } from '../../../daemon/options/edge-limits-of.js';
import { RESTART_ONLY } from '../../../daemon/options/option-table.js';
import { OptionsError, parseDaemonArgv, resolveDaemonOptions } from '../../../daemon/options/resolve-options.js';
import { DEFAULT_EDGE_LIMITS } from '../../../daemon/proxy/hardening/edge-limits.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wafctl-hardening-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const resolveWith = (argv: string[], env: NodeJS.ProcessEnv = {}) => resolveDaemonOptions(parseDaemonArgv(['--data-dir', dir, ...argv]), env, '/cwd');

describe('edge hardening options', () => {
  it('default to the edge defaults (nginx-like) and a 13 MiB inspection limit', async () => {
    const hardening = edgeHardeningOf(await resolveWith([]));
    expect(hardening.limits).toEqual(DEFAULT_EDGE_LIMITS);
    expect(hardening.maxBodyBytes).toBe(13 * 1024 * 1024);
  });

  it('come from flags, WAFCTL_* variables and daemon.json, flags first', async () => {
    await writeFile(join(dir, 'daemon.json'), JSON.stringify({ edge_header_timeout_ms: 5000, edge_max_in_flight: 64, edge_max_uri_bytes: 2048 }));
    const options = await resolveWith(['--edge-max-in-flight', '0', '--edge-max-headers', '50', '--edge-tunnel-idle-timeout-ms', '90000'], { WAFCTL_EDGE_SHED_LOOP_DELAY_MS: '0', WAFCTL_EDGE_MAX_URI_BYTES: '4096', WAFCTL_EDGE_MAX_BODY_BYTES: '1048576' });
    const { limits, maxBodyBytes } = edgeHardeningOf(options);
    expect(limits).toMatchObject({ headerTimeoutMs: 5000, maxInFlight: 0, maxHeaders: 50, shedLoopDelayMs: 0, maxUriBytes: 4096, tunnelIdleTimeoutMs: 90_000 });
    expect(maxBodyBytes).toBe(1_048_576);
  });

  it.each([
    ['--edge-header-timeout-ms', '0'],
    ['--edge-body-idle-timeout-ms', '1.5'],
    ['--edge-tunnel-idle-timeout-ms', '0'],
    ['--edge-max-uri-bytes', '0'],
    ['--edge-max-header-bytes', 'big'],
    ['--edge-max-headers', '0'],
    ['--edge-max-body-bytes', '-1'],
    ['--edge-max-in-flight', 'lots'],
    ['--edge-shed-loop-delay-ms', '1e3'],
  ])('refuses %s %j naming the flag', async (flag, value) => {
    const attempt = resolveWith([`${flag}=${value}`]);
    await expect(attempt).rejects.toThrow(OptionsError);
    await expect(resolveWith([`${flag}=${value}`])).rejects.toThrow(flag);
  });

  it('a bad daemon.json value names the key', async () => {
    await writeFile(join(dir, 'daemon.json'), JSON.stringify({ edge_max_connections: -3 }));
    await expect(resolveWith([])).rejects.toThrow(/edge_max_connections/);
  });

  it('take effect on restart (the listeners are built with them)', () => {
    for (const key of ['edgeHeaderTimeoutMs', 'edgeMaxInFlight', 'edgeMaxBodyBytes'] as const) expect(RESTART_ONLY.has(key)).toBe(true);
  });
});

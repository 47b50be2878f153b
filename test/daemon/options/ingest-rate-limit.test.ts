import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OptionsError, parseDaemonArgv, resolveDaemonOptions } from '../../../daemon/options/resolve-options.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wafctl-rate-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const resolveWith = (argv: string[], env: NodeJS.ProcessEnv = {}) => resolveDaemonOptions(parseDaemonArgv(['--data-dir', dir, ...argv]), env, '/cwd');

describe('ingest_rate_limit', () => {
  it('defaults to the spec limit of 100 requests per minute', async () => {
    expect((await resolveWith([])).ingestRateLimit).toBe(100);
  });

  it('takes large values from the flag, the environment and daemon.json', async () => {
    expect((await resolveWith(['--ingest-rate-limit', '30000'])).ingestRateLimit).toBe(30_000);
    expect((await resolveWith([], { WAFCTL_INGEST_RATE_LIMIT: '1000000' })).ingestRateLimit).toBe(1_000_000);
    await writeFile(join(dir, 'daemon.json'), JSON.stringify({ ingest_rate_limit: 600 }));
    expect((await resolveWith([])).ingestRateLimit).toBe(600);
  });

  it.each(['0', '-5', '1.5', 'fast'])('refuses %j naming the setting', async (value) => {
    await expect(resolveWith([], { WAFCTL_INGEST_RATE_LIMIT: value })).rejects.toThrow(OptionsError);
    await expect(resolveWith([], { WAFCTL_INGEST_RATE_LIMIT: value })).rejects.toThrow(/WAFCTL_INGEST_RATE_LIMIT/);
  });
});

// "Every first step works": `daemon start --demo` logs the CLI in, so the management API
// commands work at once, and the curl lines it prints (the ones README describes) get what their
// comments say, run as printed by a real shell against the real edge with the Core Rule Set.
import { exec } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSandbox, stopAll, type E2eDaemon } from './daemon-harness.js';

const sh = promisify(exec);
const DEMO_FLAGS = ['--demo', '--demo-port', '0', '--edge-port', '0', '--edge-tls-port', '0', '--api-port', '0', '--workers', '1'];

let d: E2eDaemon;
let started: { code: number; stdout: string; stderr: string };

beforeAll(async () => {
  d = await newSandbox();
  started = await d.wafctl('daemon', 'start', ...DEMO_FLAGS);
}, 180_000);
afterAll(() => stopAll(), 60_000);

function profiles(): Promise<{ current?: string; profiles: Record<string, { server: string; key: string; ca?: string }> }> {
  return readFile(join(d.box.configHome, 'wafctl', 'config.json'), 'utf8').then(JSON.parse);
}

/** The printed lines to try: the indented ones on stdout ("Try:" above them goes to stderr). */
function tryLines(stdout: string): string[] {
  return stdout.split('\n').filter((line) => line.startsWith('  ')).map((line) => line.trim());
}

// A newcomer's first minutes in order: the curl lines are the first start's (a later step restarts the
// daemon on new ports), and the logs step reads the blocks the curl step caused. So the steps keep
// their order when the suite is shuffled (found by a shuffled round, seed 3275817492).
describe('npm run demo, then the first steps', { timeout: 180_000, shuffle: false }, () => {
  it('saves a working login profile for demo.localhost, so logs and analytics work at once', async () => {
    expect(started.code, started.stderr).toBe(0);
    expect(started.stderr).toContain('logged in to demo.localhost');
    const file = await profiles();
    expect(file.current).toBe('demo.localhost');
    const status = JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout) as { api_url: string; ca_file: string };
    expect(file.profiles['demo.localhost']).toMatchObject({ server: status.api_url, ca: status.ca_file });
    expect(file.profiles['demo.localhost'].key).toMatch(/^[A-Za-z0-9]{64}$/);

    const logs = await d.wafctl('--json', 'logs');
    expect(logs.code, logs.stderr).toBe(0);
    expect(JSON.parse(logs.stdout)).toHaveProperty('logs');
    const analytics = await d.wafctl('--json', 'analytics');
    expect(analytics.code, analytics.stderr).toBe(0);
    const connect = await d.wafctl('--json', 'connect');
    expect(JSON.parse(connect.stdout)).toMatchObject({ connected: true, domain: 'demo.localhost' });
  });

  it('prints four curl lines that get what their comments say', async () => {
    const lines = tryLines(started.stdout);
    expect(lines).toHaveLength(4);
    const statusOf = async (line: string) => /^HTTP\/1\.1 (\d{3})/.exec((await sh(line, { shell: '/bin/sh' })).stdout)?.[1];
    expect(lines[0]).toMatch(/# a normal page: 200$/);
    expect(await statusOf(lines[0])).toBe('200');
    expect(lines[1]).toMatch(/# SQL injection: 403/);
    expect(await statusOf(lines[1])).toBe('403');
    expect(lines[2]).toMatch(/# a probe for a config backup: 403/);
    expect(await statusOf(lines[2])).toBe('403');
    expect(lines[3]).toMatch(/# password guessing: 200 up to 10 a minute, then 429$/);
    // 21 attempts: whichever minute boundary falls among them, one window holds 11 or more.
    const codes = (await sh(lines[3], { shell: '/bin/sh' })).stdout.trim().split(' ');
    expect(codes).toHaveLength(21);
    expect(codes).toContain('429');
    expect(codes[0]).toBe('200');
  });

  it('the blocks show in `wafctl logs` at once, with no login step', async () => {
    const until = Date.now() + 30_000;
    let rules: string[] = [];
    while (Date.now() < until) {
      const logs = await d.wafctl('--json', 'logs', '--per-page', '100');
      rules = (JSON.parse(logs.stdout) as { logs: Array<{ waf_rule_id: string }> }).logs.map((e) => e.waf_rule_id);
      if (rules.includes('200120')) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(rules).toContain('200120');
  });

  it('a second start keeps the working demo key instead of replacing it', async () => {
    const before = (await profiles()).profiles['demo.localhost'].key;
    expect((await d.wafctl('daemon', 'stop')).code).toBe(0);
    const again = await d.wafctl('daemon', 'start', ...DEMO_FLAGS);
    expect(again.code, again.stderr).toBe(0);
    const after = await profiles();
    expect(after.profiles['demo.localhost'].key).toBe(before);
    const status = JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout) as { api_url: string };
    expect(after.profiles['demo.localhost'].server).toBe(status.api_url);
    expect((await d.wafctl('--json', 'connect')).code).toBe(0);
  });

  it('a demo profile whose key no longer works gets a new key', async () => {
    const replaced = await d.wafctl('site', 'key', 'demo.localhost', '--regenerate', '--no-login');
    expect(replaced.code, replaced.stderr).toBe(0);
    expect((await d.wafctl('connect')).code).toBe(4);
    expect((await d.wafctl('daemon', 'stop')).code).toBe(0);
    const again = await d.wafctl('daemon', 'start', ...DEMO_FLAGS);
    expect(again.code, again.stderr).toBe(0);
    expect((await d.wafctl('--json', 'connect')).code).toBe(0);
  });
});

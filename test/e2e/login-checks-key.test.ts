// New user's tour, M6: `wafctl login` checks the key against GET /connect before saving, never
// replaces a working profile with a broken one, and keeps the CA pin: the one already saved for
// the site and server, or the local daemon's ca_file for its own API. A real daemon, the real CLI.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSandbox, quickStartFlags, stopAll, type E2eDaemon } from './daemon-harness.js';

let d: E2eDaemon;
let status: { api_url: string; ca_file: string };
let blogKey: string;
let otherKey: string;
const configPath = () => join(d.box.configHome, 'wafctl', 'config.json');
const WRONG_KEY = 'b'.repeat(64);

beforeAll(async () => {
  d = await newSandbox();
  const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)));
  expect(start.code, start.stderr).toBe(0);
  status = JSON.parse((await d.wafctl('--json', 'daemon', 'status')).stdout);
  blogKey = JSON.parse((await d.wafctl('--json', 'site', 'add', 'blog.test', '--origin', 'http://127.0.0.1:9')).stdout).api_key;
  otherKey = JSON.parse((await d.wafctl('--json', 'site', 'add', 'other.test', '--origin', 'http://127.0.0.1:9', '--no-login')).stdout).api_key;
}, 120_000);
afterAll(() => stopAll(), 60_000);

describe('wafctl login', { timeout: 60_000 }, () => {
  it('a wrong key exits 4, saves nothing, and the working profile and its CA pin stay', async () => {
    const before = await readFile(configPath(), 'utf8');
    const result = await d.wafctl('login', '--site', 'blog.test', '--key', WRONG_KEY, '--server', status.api_url);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^error: invalid_api_key: .*nothing was saved; the profile of blog\.test is unchanged/);
    expect(result.stderr).toContain('hint: ');
    expect(await readFile(configPath(), 'utf8')).toBe(before);
    expect((await d.wafctl('--json', 'connect')).code).toBe(0);
  });

  it('the right key without --ca keeps the CA already pinned for that site and server', async () => {
    const result = await d.wafctl('--json', 'login', '--site', 'blog.test', '--key', blogKey, '--server', status.api_url);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ site: 'blog.test', server: status.api_url, ca: status.ca_file });
    expect(JSON.parse(await readFile(configPath(), 'utf8')).profiles['blog.test']).toEqual({ server: status.api_url, key: blogKey, ca: status.ca_file });
    expect((await stat(configPath())).mode & 0o777).toBe(0o600);
    expect((await d.wafctl('connect')).code).toBe(0);
  });

  it('a new profile for the local daemon pins its ca_file, with or without --server', async () => {
    const result = await d.wafctl('--json', 'login', '--site', 'other.test', '--key', otherKey, '--server', status.api_url);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).ca).toBe(status.ca_file);
    const connect = await d.wafctl('--json', 'connect');
    expect(JSON.parse(connect.stdout)).toMatchObject({ domain: 'other.test' });
  });

  it("another site's key is refused with wrong_site (exit 1), nothing saved", async () => {
    const before = await readFile(configPath(), 'utf8');
    const result = await d.wafctl('login', '--site', 'blog.test', '--key', otherKey);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`error: wrong_site: the key belongs to other.test, not blog.test; nothing was saved\nhint: wafctl login --site other.test --key KEY\n`);
    expect(await readFile(configPath(), 'utf8')).toBe(before);
  });

  it('an unreachable server exits 4 and saves nothing', async () => {
    const before = await readFile(configPath(), 'utf8');
    const result = await d.wafctl('login', '--site', 'blog.test', '--key', blogKey, '--server', 'https://127.0.0.1:1');
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^error: api_unreachable: .*nothing was saved/);
    expect(await readFile(configPath(), 'utf8')).toBe(before);
  });
});

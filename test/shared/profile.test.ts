import { mkdtemp, readFile, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProfileFileError, ProfileStore, profilePath } from '../../shared/profile.js';

const KEY = 'A'.repeat(64);
let home: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'wafctl-profile-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('profilePath', () => {
  it('honours XDG_CONFIG_HOME, else ~/.config', () => {
    expect(profilePath({ XDG_CONFIG_HOME: '/x/cfg', HOME: '/home/u' })).toBe('/x/cfg/wafctl/config.json');
    expect(profilePath({ HOME: '/home/u' })).toBe('/home/u/.config/wafctl/config.json');
  });
});

describe('ProfileStore', () => {
  it('saves a profile with mode 0600 and makes it current', async () => {
    const store = new ProfileStore({ HOME: home });
    await store.save('example.com', { server: 'https://127.0.0.1:9443', key: KEY, ca: '/d/tls/ca.crt' });
    expect((await stat(store.path)).mode & 0o777).toBe(0o600);
    const file = JSON.parse(await readFile(store.path, 'utf8'));
    expect(file).toEqual({ version: 1, current: 'example.com', profiles: { 'example.com': { server: 'https://127.0.0.1:9443', key: KEY, ca: '/d/tls/ca.crt' } } });
  });

  it('resolves flags over environment over the file', async () => {
    const fileOnly = new ProfileStore({ HOME: home });
    await fileOnly.save('a.example', { server: 'https://a:9443', key: KEY });
    await fileOnly.save('b.example', { server: 'https://b:9443', key: 'B'.repeat(64) });
    expect(await fileOnly.resolve({})).toMatchObject({ site: 'b.example', server: 'https://b:9443', key: 'B'.repeat(64) });
    expect(await fileOnly.resolve({ site: 'a.example' })).toMatchObject({ site: 'a.example', server: 'https://a:9443', key: KEY });

    const withEnv = new ProfileStore({ HOME: home, WAFCTL_SITE: 'a.example', WAFCTL_SERVER: 'https://env:1', WAFCTL_KEY: 'E'.repeat(64), WAFCTL_TOKEN: 't0k' });
    expect(await withEnv.resolve({})).toEqual({ site: 'a.example', server: 'https://env:1', key: 'E'.repeat(64), ca: undefined, token: 't0k' });
    expect((await withEnv.resolve({ site: 'b.example', server: 'https://flag:2' })).server).toBe('https://flag:2');
  });

  it('works with no file at all (environment only)', async () => {
    const store = new ProfileStore({ HOME: home, WAFCTL_SERVER: 'https://s:9443', WAFCTL_KEY: KEY });
    expect(await store.resolve({})).toMatchObject({ site: undefined, server: 'https://s:9443', key: KEY });
  });

  it('never overwrites a corrupt file, and names the problem', async () => {
    const store = new ProfileStore({ XDG_CONFIG_HOME: home });
    await mkdir(join(home, 'wafctl'));
    await writeFile(store.path, '{ not json');
    await expect(store.save('x.example', { server: 'https://s:1', key: KEY })).rejects.toThrow(ProfileFileError);
    await expect(store.resolve({})).rejects.toThrow(/not valid JSON/);
    expect(await readFile(store.path, 'utf8')).toBe('{ not json');

    await writeFile(store.path, JSON.stringify({ version: 1, profiles: { 'x.example': { server: 'nope', key: KEY } } }));
    await expect(store.load()).rejects.toThrow(/profiles\.x\.example\.server/);
  });
});

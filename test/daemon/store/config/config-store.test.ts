import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigFileError, openConfigStore } from '../../../../daemon/store/config/config-store.js';
import { addSite } from '../../../../daemon/store/config/sites.js';
import { CONFIG_SCHEMA_VERSION } from '../../../../shared/schemas/config.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wafctl-store-'));
  file = join(dir, 'config.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const site = { domain: 'example.test', origin: 'http://127.0.0.1:8081', aliases: [], plan: 'free' as const };

describe('config store', () => {
  it('creates config.json with the default account, mode 0600', async () => {
    const store = await openConfigStore(file);
    const snap = store.snapshot();
    expect(snap.schema_version).toBe(CONFIG_SCHEMA_VERSION);
    expect(snap.accounts).toHaveLength(1);
    expect(snap.accounts[0].name).toBe('default');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8')).accounts[0].id).toBe(1);
  });

  it('persists updates, keeps mode 0600 and reloads them on the next open', async () => {
    const store = await openConfigStore(file);
    const { apiKey } = await store.update((draft) => addSite(draft, site, new Date().toISOString()));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const again = await openConfigStore(file);
    expect(again.snapshot().sites.map((s) => s.domain)).toEqual(['example.test']);
    expect(await readFile(file, 'utf8')).not.toContain(apiKey);
  });

  it('keeps the edge fields of a site (is_default, tls) across writes and reopen', async () => {
    const store = await openConfigStore(file);
    await store.update((draft) => addSite(draft, site, new Date().toISOString()));
    await store.update((draft) => {
      draft.sites[0].is_default = true;
      draft.sites[0].tls = { cert: 'CERT', key: 'KEY' };
    });
    await store.update((draft) => { draft.accounts[0].api_access = false; });
    const again = await openConfigStore(file);
    expect(again.snapshot().sites[0]).toMatchObject({ is_default: true, tls: { cert: 'CERT', key: 'KEY' } });
  });

  it('hands out frozen snapshots and announces changes', async () => {
    const store = await openConfigStore(file);
    const seen: string[] = [];
    store.onChange((snap, reason) => seen.push(`${reason}:${snap.sites.length}`));
    const before = store.snapshot();
    await store.update((draft) => addSite(draft, site, new Date().toISOString()));
    expect(Object.isFrozen(before)).toBe(true);
    expect(() => (before.sites as unknown[]).push(1)).toThrow();
    expect(before.sites).toHaveLength(0);
    expect(store.snapshot().sites).toHaveLength(1);
    expect(seen).toEqual(['update:1']);
  });

  it('changes nothing when a mutation throws', async () => {
    const store = await openConfigStore(file);
    const text = await readFile(file, 'utf8');
    await expect(store.update((draft) => { draft.sites.push({} as never); throw new Error('no'); })).rejects.toThrow('no');
    expect(store.snapshot().sites).toHaveLength(0);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('refuses to write a config that fails the schema', async () => {
    const store = await openConfigStore(file);
    const text = await readFile(file, 'utf8');
    await expect(store.update((draft) => { draft.accounts = []; })).rejects.toThrow(/accounts/);
    expect(store.snapshot().accounts).toHaveLength(1);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('serialises concurrent updates so none is lost', async () => {
    const store = await openConfigStore(file);
    const now = new Date().toISOString();
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.update((d) => addSite(d, { ...site, domain: `s${i}.example.test` }, now))));
    const again = await openConfigStore(file);
    expect(again.snapshot().sites).toHaveLength(20);
    expect(new Set(again.snapshot().sites.map((s) => s.id)).size).toBe(20);
  });

  it('refuses a file that is not JSON, naming the file, and leaves it untouched', async () => {
    await writeFile(file, '{"schema_version": 1, broken');
    const error = await openConfigStore(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigFileError);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(/not valid JSON/);
    expect(await readFile(file, 'utf8')).toBe('{"schema_version": 1, broken');
  });

  it('refuses a file that fails the schema, naming the issue path', async () => {
    const store = await openConfigStore(file);
    await store.update((d) => addSite(d, site, new Date().toISOString()));
    const doc = JSON.parse(await readFile(file, 'utf8'));
    doc.sites[0].origin = 42;
    const text = JSON.stringify(doc);
    await writeFile(file, text);
    await expect(openConfigStore(file)).rejects.toThrow(/sites\.0\.origin/);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('refuses a file from a newer wafctl', async () => {
    await openConfigStore(file);
    const doc = JSON.parse(await readFile(file, 'utf8'));
    doc.schema_version = CONFIG_SCHEMA_VERSION + 1;
    await writeFile(file, JSON.stringify(doc));
    await expect(openConfigStore(file)).rejects.toThrow(/newer wafctl/);
  });

  it('migrates an older file through the table, keeping a backup of the original', async () => {
    await openConfigStore(file);
    const current = JSON.parse(await readFile(file, 'utf8'));
    // A made-up version 0 that called the accounts list "owners".
    const { accounts, ...rest } = current;
    const old = JSON.stringify({ ...rest, schema_version: 0, owners: accounts });
    await writeFile(file, old);
    const migrations = { 0: ({ owners, ...doc }: Record<string, unknown>) => ({ ...doc, accounts: owners }) };
    const store = await openConfigStore(file, { migrations });
    expect(store.snapshot().schema_version).toBe(CONFIG_SCHEMA_VERSION);
    expect(store.snapshot().accounts[0].name).toBe('default');
    expect(JSON.parse(await readFile(file, 'utf8')).schema_version).toBe(CONFIG_SCHEMA_VERSION);
    expect(await readFile(`${file}.v0.bak`, 'utf8')).toBe(old);
  });

  it('refuses a version with no migration path, untouched', async () => {
    await writeFile(file, '{"schema_version": 0}');
    await expect(openConfigStore(file)).rejects.toThrow(/no migration from version 0/);
    expect(await readFile(file, 'utf8')).toBe('{"schema_version": 0}');
  });

  it('refuses to overwrite a hand edit made since the last read, until reload', async () => {
    const store = await openConfigStore(file);
    await store.update((d) => addSite(d, site, new Date().toISOString()));
    const doc = JSON.parse(await readFile(file, 'utf8'));
    doc.accounts[0].name = 'edited by hand';
    const edited = JSON.stringify(doc, null, 2);
    await new Promise((r) => setTimeout(r, 10));
    await writeFile(file, edited);
    const error = await store.update((d) => { d.accounts[0].api_access = false; }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'config_conflict' });
    expect(await readFile(file, 'utf8')).toBe(edited);
    expect(await store.reload()).toEqual({ ok: true });
    await store.update((d) => { d.accounts[0].api_access = false; });
    expect(JSON.parse(await readFile(file, 'utf8')).accounts[0]).toMatchObject({ name: 'edited by hand', api_access: false });
  });

  it('detects a hand edit made before the first update too', async () => {
    const store = await openConfigStore(file);
    await new Promise((r) => setTimeout(r, 10));
    await writeFile(file, (await readFile(file, 'utf8')).replace('"default"', '"renamed"'));
    await expect(store.update((d) => addSite(d, site, new Date().toISOString()))).rejects.toMatchObject({ code: 'config_conflict' });
  });

  it('reload picks up an edited file and refuses an invalid one, keeping the running config', async () => {
    const store = await openConfigStore(file);
    const reasons: string[] = [];
    store.onChange((_s, reason) => reasons.push(reason));
    const doc = JSON.parse(await readFile(file, 'utf8'));
    doc.accounts[0].api_access = false;
    await writeFile(file, JSON.stringify(doc));
    expect(await store.reload()).toEqual({ ok: true });
    expect(store.snapshot().accounts[0].api_access).toBe(false);
    await writeFile(file, '[');
    const bad = await store.reload();
    expect(bad.ok).toBe(false);
    expect(store.snapshot().accounts[0].api_access).toBe(false);
    expect(reasons).toEqual(['reload']);
  });
});

// The cluster config store against a real PostgreSQL, in this process: two stores on one database
// stand for two nodes. What a daemon does with it (the edge, the API) is in nodes.test.ts.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresConfigStore } from '../../daemon/cluster/postgres-config-store.js';
import type { ConfigSnapshot, ConfigStore } from '../../daemon/store/config/config-store.js';
import { WafctlError } from '../../shared/errors.js';
import type { Config } from '../../shared/schemas/config.js';
import { freshDatabase, sql, testPostgres } from './postgres.js';

const server = await testPostgres();
if (!server.ok) console.warn(server.skip);
const opened: ConfigStore[] = [];
afterAll(async () => {
  for (const store of opened.splice(0)) await store.close?.();
  if (server.ok) await server.stop();
}, 60_000);

async function node(url: string, pollMs?: number): Promise<ConfigStore> {
  const dir = await mkdtemp(join(tmpdir(), 'wafctl-cluster-store-'));
  const store = await openPostgresConfigStore({ url, cacheFile: join(dir, 'config.json'), logger: pino({ level: 'silent' }), pollMs });
  opened.push(store);
  return store;
}

/** Resolves with the first published snapshot that passes `test`. */
function published(store: ConfigStore, test: (snapshot: ConfigSnapshot) => boolean): Promise<ConfigSnapshot> {
  return new Promise((resolve) => {
    if (test(store.snapshot())) return resolve(store.snapshot());
    const stop = store.onChange((snapshot) => {
      if (!test(snapshot)) return;
      stop();
      resolve(snapshot);
    });
  });
}

const version = async (url: string) => Number((await sql<{ version: string }>(url, 'SELECT version FROM wafctl_config'))[0]!.version);
const lastAccount = (snapshot: ConfigSnapshot) => snapshot.accounts.at(-1)?.name;
const extra = (snapshot: ConfigSnapshot) => snapshot.accounts.length - 1;

describe.skipIf(!server.ok)('the PostgreSQL config store', () => {
  const serverUrl = server.ok ? server.url : '';

  it('a write on one node is published on the other and lands in its cache file', async () => {
    const url = await freshDatabase(serverUrl);
    const a = await node(url);
    const b = await node(url);
    const seen = published(b, (s) => extra(s) === 1);
    await a.update((draft) => addAccount(draft, 'first'));
    expect(lastAccount(await seen)).toBe('first');
    await b.flush();
    expect(JSON.parse(await readFile(b.file, 'utf8')).accounts.at(-1).name).toBe('first');
    expect(await version(url)).toBe(2);
  });

  it('reload re-reads PostgreSQL and publishes it as a reload', async () => {
    const url = await freshDatabase(serverUrl);
    const a = await node(url);
    const reasons: string[] = [];
    a.onChange((_snapshot, reason) => reasons.push(reason));
    expect(await a.reload()).toEqual({ ok: true });
    expect(reasons).toEqual(['reload']);
  });

  it('refuses to start when PostgreSQL is unreachable and there is no cache to start from', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wafctl-cluster-store-'));
    const nowhere = new URL(await freshDatabase(serverUrl));
    nowhere.port = '1';
    await expect(openPostgresConfigStore({ url: nowhere.toString(), cacheFile: join(dir, 'config.json'), logger: pino({ level: 'silent' }) }))
      .rejects.toThrow(/is unreachable and .*config\.json holds no cached config/);
  });

  it('writes from two nodes at once are serialised by the row lock: none is lost', async () => {
    const url = await freshDatabase(serverUrl);
    const a = await node(url);
    const b = await node(url);
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).update((draft) => addAccount(draft, `n${i}`))));
    const all = (s: ConfigSnapshot) => extra(s) === 10;
    await Promise.all([published(a, all), published(b, all)]);
    expect(await version(url)).toBe(11);
  });

  it('a mutation that throws or leaves an invalid config changes nothing anywhere', async () => {
    const url = await freshDatabase(serverUrl);
    const a = await node(url);
    await expect(a.update(() => { throw new WafctlError('duplicate'); })).rejects.toMatchObject({ code: 'duplicate' });
    await expect(a.update((draft) => { (draft as { accounts: unknown }).accounts = 'nope'; })).rejects.toThrow(/invalid config/);
    expect(await version(url)).toBe(1);
    expect(extra(a.snapshot())).toBe(0);
  });

  it('a change whose NOTIFY never arrived is found by the version poll', async () => {
    const url = await freshDatabase(serverUrl);
    const b = await node(url, 100);
    const doc = structuredClone(b.snapshot()) as Config;
    addAccount(doc, 'unannounced');
    const seen = published(b, (s) => extra(s) === 1);
    // Written behind the store's back, with no pg_notify: only the poll can see it.
    await sql(url, 'UPDATE wafctl_config SET version = version + 1, doc = $1', [JSON.stringify(doc)]);
    expect(lastAccount(await seen)).toBe('unannounced');
  });

  it('a stored document this version cannot read is not applied; the node keeps what it has', async () => {
    const url = await freshDatabase(serverUrl);
    const b = await node(url, 100);
    const before = b.snapshot();
    await sql(url, `UPDATE wafctl_config SET version = version + 1, doc = jsonb_set(doc, '{schema_version}', '999')`);
    // The next write reads the same row under its lock and refuses it too: nothing is overwritten.
    await expect(b.update(() => undefined)).rejects.toThrow(/newer wafctl/);
    expect(b.snapshot()).toBe(before);
  });

  it('answers store_unavailable for a write when PostgreSQL cannot be reached', async () => {
    const url = await freshDatabase(serverUrl);
    const a = await node(url);
    // Point a second node at a port nothing listens on, after giving it a cache to start from.
    const dir = await mkdtemp(join(tmpdir(), 'wafctl-cluster-store-'));
    const cacheFile = join(dir, 'config.json');
    const seeded = await openPostgresConfigStore({ url, cacheFile, logger: pino({ level: 'silent' }) });
    await seeded.close?.();
    const nowhere = new URL(url);
    nowhere.port = '1';
    const cut = await openPostgresConfigStore({ url: nowhere.toString(), cacheFile, logger: pino({ level: 'silent' }) });
    opened.push(cut);
    await expect(cut.update(() => undefined)).rejects.toMatchObject({ code: 'store_unavailable', status: 503 });
    expect(await cut.reload()).toMatchObject({ ok: false, message: expect.stringMatching(/unreachable/) });
    expect(await version(url)).toBe(1);
    expect(extra(a.snapshot())).toBe(0);
  });
});

function addAccount(draft: Config, name: string): void {
  const id = draft.next_ids.account++;
  draft.accounts.push({ id, name, api_access: true, created_at: '2026-11-27T00:00:00.000Z' });
}

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConfigStore, type ConfigStore } from '../../../daemon/store/config/config-store.js';
import { addSite, setSiteStatus } from '../../../daemon/store/config/sites.js';
import { JsonlEventStore } from '../../../daemon/store/events/jsonl-event-store.js';
import { createProxyEdgeFactory } from '../../../daemon/proxy/edge-factory.js';
import { edgeConfigFromSites } from '../../../daemon/proxy/from-config.js';
import type { EdgeService } from '../../../daemon/edge-service.js';
import type { DaemonOptions } from '../../../daemon/options/option-table.js';
import { request, startOrigin, type Origin } from './helpers.js';

// The edge as app.ts builds it: the real config store drives it (changes apply live) and the
// real JSON Lines event store receives its events.

describe('edge factory over the config store and the event store', () => {
  let dir: string, origin: Origin, store: ConfigStore, events: JsonlEventStore, edge: EdgeService, port = 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wafctl-edge-'));
    origin = await startOrigin();
    store = await openConfigStore(join(dir, 'config.json'));
    await store.update((d) => addSite(d, { domain: 'example.test', origin: origin.url, aliases: ['www.example.test'], plan: 'free' }, new Date().toISOString()));
    events = await JsonlEventStore.open({ dir: join(dir, 'events') });
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=localhost',
      '-keyout', join(dir, 'k.pem'), '-out', join(dir, 'c.pem')], { stdio: 'ignore' });
    const tls = { cert: readFileSync(join(dir, 'c.pem'), 'utf8'), key: readFileSync(join(dir, 'k.pem'), 'utf8'), caFile: null, generated: true };
    edge = await createProxyEdgeFactory({ eventStore: events })({ options: {} as DaemonOptions, store, logger: pino({ level: 'silent' }), tls });
    port = (await edge.listen('127.0.0.1', { edge: 0, edgeTls: 0 })).edge;
  });
  afterAll(async () => {
    await edge.close(100);
    await events.close();
    await origin.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the stored site, applies a store change live, and writes events to the event store', async () => {
    expect((await request({ port, host: 'www.example.test' })).status).toBe(200);
    await store.update((d) => {
      d.sites[0].ip_rules.blacklist.push({ ip: '127.0.0.1', description: 'test', added_at: new Date().toISOString() });
    });
    const blocked = await request({ port, path: '/after-change' });
    expect(blocked.status).toBe(403);
    await store.update((d) => { setSiteStatus(d, 'example.test', 'inactive', new Date().toISOString()); });
    expect((await request({ port })).status).toBe(503);
    await edge.close(100);
    const logs = await events.searchWafLogs({ site_id: 1, page: 1, per_page: 10 });
    expect(logs.logs.map((l) => l.uri)).toContain('/after-change');
    port = (await edge.listen('127.0.0.1', { edge: 0, edgeTls: 0 })).edge;
  });

  it('lets a live site take over a deleted site\'s host', () => {
    const now = new Date().toISOString();
    const base = { account_id: 1, plan: 'free' as const, key_hash: null, key_created_at: null, created_at: now, updated_at: now, is_default: false, tls: null,
      ip_rules: { whitelist: [], blacklist: [] }, geo_rules: null, protection: store.snapshot().sites[0].protection };
    const cfg = edgeConfigFromSites([
      { ...base, id: 1, domain: 'a.test', aliases: ['b.test', 'c.test'], origin: origin.url, status: 'deleted' },
      { ...base, id: 2, domain: 'b.test', aliases: [], origin: origin.url, status: 'active' },
    ]);
    expect(cfg.sites.map((s) => [s.id, s.domain, s.aliases])).toEqual([[2, 'b.test', []], [1, 'a.test', ['c.test']]]);
  });
});

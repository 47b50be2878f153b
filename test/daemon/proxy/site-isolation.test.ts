import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { openConfigStore, type ConfigStore } from '../../../daemon/store/config/config-store.js';
import { addSite, setSiteStatus } from '../../../daemon/store/config/sites.js';
import { createProxyEdgeFactory } from '../../../daemon/proxy/edge-factory.js';
import { LastGoodInputs } from '../../../daemon/proxy/last-good-inputs.js';
import { buildEdgeSnapshot, type EdgeSnapshot } from '../../../daemon/proxy/snapshot.js';
import type { SiteInput } from '../../../daemon/proxy/snapshot-input.js';
import type { EdgeService } from '../../../daemon/edge-service.js';
import type { DaemonOptions } from '../../../daemon/options/option-table.js';
import { request, startOrigin, type Origin } from './helpers.js';

// Security review H1: a site whose configuration the edge cannot compile affects that site only.
// Unit level (buildEdgeSnapshot with isolation, LastGoodInputs), then the daemon's edge (edge
// factory over the real config store) with a real origin, the broken entry in config.json before
// the edge starts and pushed while it runs.

const ORIGIN = 'http://127.0.0.1:9';
const a: SiteInput = { id: 1, domain: 'a.test', origin: ORIGIN, ipBlacklist: ['203.0.113.0/24'] };
const b: SiteInput = { id: 2, domain: 'b.test', aliases: ['www.b.test'], origin: ORIGIN };

// What a hand edit, an older version or a bug can leave in a site's config, one per kind of field.
const BREAKAGES: Array<[string, Partial<SiteInput> | Record<string, unknown>]> = [
  ['an IP entry with host bits', { ipWhitelist: ['10.1.2.3/8'] }],
  ['an IPv4-mapped entry with an IPv6 prefix over 128', { ipBlacklist: ['::ffff:10.0.0.0/130'] }],
  ['a zone id in a page allow list', { pageProtection: [{ path: '/admin', allow: ['fe80::1%eth0'] }] }],
  ['a country that is not a code', { geo: { enabled: true, mode: 'blacklist', countries: ['Russia'] } }],
  ['an unusable certificate', { tls: { cert: 'not a pem', key: 'nope' } }],
  ['an origin that is not http(s)', { origin: 'ftp://x' }],
  ['a path without its slash', { rateLimits: [{ path: 'api', perMinute: 5 }] }],
];

describe('buildEdgeSnapshot with isolation', () => {
  it.each(BREAKAGES)('%s: without a last good, that site alone is served unavailable (503), the others as given', (_what, breakage) => {
    expect(() => buildEdgeSnapshot({ sites: [a, { ...b, ...breakage }] })).toThrow(); // strict builds still throw
    const snap = buildEdgeSnapshot({ sites: [a, { ...b, ...breakage }] }, { previous: null });
    expect(snap.siteForHost('a.test')).toMatchObject({ id: 1, status: 'active' });
    expect(snap.siteForHost('a.test')!.ipBlacklist.size).toBe(1);
    for (const host of ['b.test', 'WWW.b.test']) expect(snap.siteForHost(host)).toMatchObject({ id: 2, status: 'inactive' });
    expect(snap.problems).toEqual([expect.objectContaining({ siteId: 2, domain: 'b.test', served: 'unavailable' })]);
  });

  it.each(BREAKAGES)('%s: with a last good, that site keeps it', (_what, breakage) => {
    const good = buildEdgeSnapshot({ sites: [a, b] }, { previous: null });
    const snap = buildEdgeSnapshot({ sites: [{ ...a, ipBlacklist: [] }, { ...b, ...breakage }] }, { previous: good });
    expect(snap.siteForHost('b.test')).toBe(good.siteForHost('b.test'));
    expect(snap.siteForHost('a.test')!.ipBlacklist.size).toBe(0); // the other site's change applies
    expect(snap.problems).toEqual([expect.objectContaining({ siteId: 2, served: 'last-good' })]);
  });

  it('a broken site that the new config turns off is off, last good or not', () => {
    const good = buildEdgeSnapshot({ sites: [a, b] }, { previous: null });
    for (const status of ['inactive', 'deleted'] as const) {
      const snap = buildEdgeSnapshot({ sites: [a, { ...b, status, ipWhitelist: ['nope'] }] }, { previous: good });
      expect(snap.siteForHost('b.test')!.status).toBe(status);
    }
  });

  it('a site that is not even an object, or has no valid host, does not stop the build', () => {
    const snap = buildEdgeSnapshot({ sites: [a, null, 'x', { id: 7, domain: 'bad domain!', origin: ORIGIN }] }, { previous: null });
    expect(snap.siteForHost('a.test')!.id).toBe(1);
    expect(snap.problems).toHaveLength(3);
  });

  it('two sites claiming a host: the first keeps it, the second is served on its others', () => {
    const snap = buildEdgeSnapshot({ sites: [a, { ...b, aliases: ['a.test', 'www.b.test'] }] }, { previous: null });
    expect(snap.siteForHost('a.test')!.id).toBe(1);
    expect(snap.siteForHost('www.b.test')!.id).toBe(2);
    expect(snap.problems).toEqual([expect.objectContaining({ siteId: 2, served: 'conflict' })]);
  });
});

describe('LastGoodInputs (the primary, once for all workers)', () => {
  it('replaces a site that does not compile by its last good input, or by an unavailable one', () => {
    const inputs = new LastGoodInputs();
    const first = inputs.select({ sites: [a, { ...b, ipWhitelist: ['10.1.2.3/8'] }] });
    expect(first.config.sites[0]).toBe(a);
    expect(first.config.sites[1]).toMatchObject({ id: 2, domain: 'b.test', aliases: ['www.b.test'], status: 'inactive' });
    expect(first.problems).toEqual([expect.objectContaining({ siteId: 2, served: 'unavailable', reason: expect.stringMatching(/host bits/) })]);
    expect(buildEdgeSnapshot(first.config).problems).toEqual([]); // what workers get always compiles

    const fixed = { ...b, ipWhitelist: ['10.0.0.0/8'] };
    expect(inputs.select({ sites: [a, fixed] }).config.sites[1]).toBe(fixed);
    const again = inputs.select({ sites: [a, { ...b, ipWhitelist: ['::ffff:10.0.0.0/104', 'fe80::1%1'] }] });
    expect(again.config.sites[1]).toBe(fixed);
    expect(again.problems).toEqual([expect.objectContaining({ siteId: 2, served: 'last-good', reason: expect.stringMatching(/zone id/) })]);

    // A site gone from the config is forgotten: back broken, it has no last good.
    inputs.select({ sites: [a] });
    expect(inputs.select({ sites: [a, { ...b, ipWhitelist: ['nope'] }] }).problems[0].served).toBe('unavailable');
  });
});

describe("the daemon's edge over the config store, with a real origin", () => {
  let dir: string, origin: Origin, tls: { cert: string; key: string; caFile: null; generated: boolean };
  let store: ConfigStore | null = null, edge: EdgeService | null = null;
  const logLines: string[] = [];
  const logger = pino({ level: 'info' }, new Writable({ write(chunk, _enc, done) { logLines.push(String(chunk)); done(); } }));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wafctl-isolation-'));
    origin = await startOrigin();
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=localhost',
      '-keyout', join(dir, 'k.pem'), '-out', join(dir, 'c.pem')], { stdio: 'ignore' });
    tls = { cert: await readFile(join(dir, 'c.pem'), 'utf8'), key: await readFile(join(dir, 'k.pem'), 'utf8'), caFile: null, generated: true };
  });
  afterEach(async () => {
    await edge?.close(100);
    edge = null;
    store = null;
    logLines.length = 0;
  });
  afterAll(async () => {
    await origin.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A fresh config.json with a.test and b.test, `edit` applied to the file as a hand edit would, then the edge started on it. */
  async function startOn(edit: (config: { sites: Array<{ domain: string; ip_rules: { whitelist: Array<{ ip: string }>; blacklist: Array<{ ip: string }> } }> }) => void) {
    const file = join(await mkdtemp(join(dir, 'data-')), 'config.json');
    const setup = await openConfigStore(file);
    const now = new Date().toISOString();
    await setup.update((d) => {
      addSite(d, { domain: 'a.test', origin: origin.url, aliases: [], plan: 'free' }, now);
      addSite(d, { domain: 'b.test', origin: origin.url, aliases: [], plan: 'free' }, now);
    });
    const config = JSON.parse(await readFile(file, 'utf8'));
    edit(config);
    await writeFile(file, JSON.stringify(config));
    store = await openConfigStore(file);
    edge = await createProxyEdgeFactory()({ options: {} as DaemonOptions, store, logger, tls });
    return (await edge.listen('127.0.0.1', { edge: 0, edgeTls: 0 })).edge;
  }
  const rule = (ip: string) => ({ ip, description: '', added_at: new Date().toISOString() });
  const status = async (port: number, host: string) => (await request({ port, host })).status;

  it('config.json with an entry the edge cannot compile: the edge starts, that site is 503 and nothing reaches the origin for it', async () => {
    const port = await startOn((c) => { c.sites[1].ip_rules.whitelist.push(rule('10.1.2.3/8')); });
    const seen = origin.seen.length;
    expect(await status(port, 'a.test')).toBe(200);
    expect(await status(port, 'b.test')).toBe(503);
    expect(origin.seen.length).toBe(seen + 1);
    expect(logLines.join('')).toMatch(/site 2 \(b\.test\) configuration not applied, it is served unavailable \(503\).*10\.1\.2\.3\/8.*host bits/);
    // The other site keeps updating; the broken one, fixed, serves.
    await store!.update((d) => { d.sites[0].ip_rules.blacklist.push(rule('127.0.0.1')); });
    expect(await status(port, 'a.test')).toBe(403);
    await store!.update((d) => { d.sites[1].ip_rules.whitelist = []; });
    expect(await status(port, 'b.test')).toBe(200);
  });

  it('an entry stored by an older version (::ffff:a00:0/104) compiles as 10.0.0.0/8', async () => {
    const port = await startOn((c) => { c.sites[0].ip_rules.blacklist.push(rule('::ffff:7f00:0/104')); });
    expect(await status(port, 'a.test')).toBe(403); // 127.0.0.1 is in ::ffff:127.0.0.0/104 = 127.0.0.0/8
    expect(await status(port, 'b.test')).toBe(200);
    expect(logLines.join('')).not.toMatch(/not applied/);
  });

  it('broken while running: that site keeps its last good rules, the other applies its changes, disabling still works', async () => {
    const port = await startOn((c) => { c.sites[1].ip_rules.blacklist.push(rule('127.0.0.1')); });
    expect(await status(port, 'b.test')).toBe(403);
    await store!.update((d) => { d.sites[1].ip_rules.blacklist = [rule('::ffff:1.2.3.4/95')]; });
    expect(await status(port, 'b.test')).toBe(403);
    expect(logLines.join('')).toMatch(/site 2 \(b\.test\) configuration not applied, its last good configuration stays.*1\.2\.3\.4\/95/);
    await store!.update((d) => { d.sites[0].ip_rules.blacklist.push(rule('::ffff:127.0.0.1')); });
    expect(await status(port, 'a.test')).toBe(403);
    expect(await status(port, 'b.test')).toBe(403);
    await store!.update((d) => { setSiteStatus(d, 'b.test', 'inactive', new Date().toISOString()); });
    expect(await status(port, 'b.test')).toBe(503);
  });
});

// The ban service over a real bans.json: strikes from the edge's block events (only the first
// request over a limit in a window strikes), an automatic ban at the site's strike count and not
// before, no ban where auto-ban is off or the count was denied, manual bans and lifts, the ban's
// own WAF event, the live list handed to listeners, bans kept across a reopen, concurrent adds
// all kept, and an unreadable file moved aside rather than stopping the daemon.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { BanService } from '../../../daemon/bans/ban-service.js';
import { FileBanStore } from '../../../daemon/bans/file-ban-store.js';
import { parseIp } from '../../../daemon/proxy/ip-set.js';
import type { WafEvent } from '../../../daemon/proxy/events.js';
import { MemoryCounterStore, type CounterStore } from '../../../daemon/store/counter-store.js';
import type { Ban } from '../../../shared/schemas/bans.js';
import type { NewWafEvent } from '../../../shared/schemas/events.js';
import { defaultProtection, type StoredSite } from '../../../shared/schemas/site.js';
import { tempDir } from '../store/events/helpers.js';

const T0 = Date.parse('2026-11-28T10:00:30.000Z');
const silent = pino({ level: 'silent' });

function site(id: number, autoBan: StoredSite['protection']['auto_ban']): StoredSite {
  return {
    id, account_id: 1, domain: `site${id}.test`, aliases: [], origin: 'http://127.0.0.1:9', plan: 'free', status: 'active',
    key_hash: null, key_created_at: null, created_at: '2026-11-01T00:00:00.000Z', updated_at: '2026-11-01T00:00:00.000Z',
    ip_rules: { whitelist: [], blacklist: [] }, geo_rules: null, protection: { ...defaultProtection(), auto_ban: autoBan },
  };
}

/** The edge's block event of a rate-limited request: `count/limit`. */
function overLimit(siteId: number, client: string, count: number, limit = 5, group = 'rate-limit'): WafEvent {
  return {
    timestamp_ms: T0, host: `site${siteId}.test`, client_ip: client, uri: '/wp-login.php', method: 'POST', waf_file: 'edge/checks/rate-limit',
    rule_id: 'rate-limit', severity: 'WARNING', msg: 'Rate limit', matched_var: 'IP', matched_data: `${count}/${limit}`,
    group, site_id: siteId, request_id: 'r', action: 'block', country: '',
  };
}

interface Rig {
  service: BanService;
  store: FileBanStore;
  events: NewWafEvent[];
  changes: Ban[][];
  clock: { now: number };
  file: string;
}

const open: Rig[] = [];
afterEach(() => {
  for (const r of open.splice(0)) r.service.close();
});

async function rig(sites: StoredSite[], counters: CounterStore = new MemoryCounterStore(), file = join(tempDir('wafctl-bans-'), 'bans.json')): Promise<Rig> {
  const clock = { now: T0 };
  const store = await FileBanStore.open(file, silent, () => clock.now);
  const events: NewWafEvent[] = [];
  const service = new BanService({ store, counters, sites: () => sites, events: (e) => events.push(e), logger: silent, clock: () => clock.now });
  const changes: Ban[][] = [];
  service.onChange((live) => changes.push(live));
  const r = { service, store, events, changes, clock, file };
  open.push(r);
  return r;
}

/** Until `test` holds; the strike's ban is written asynchronously (fsync). Bounded by tries. */
async function eventually(test: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !test(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(test()).toBe(true);
}

describe('BanService', () => {
  it('bans at the site\'s strike count, counting only first over-limit requests, and logs the ban', async () => {
    const r = await rig([site(1, { strikes: 3, window_minutes: 10, ban_minutes: 60 })]);
    // Within one window: later over-limit requests of the same minute are not strikes.
    for (const count of [6, 7, 8]) r.service.observe(overLimit(1, '203.0.113.7', count));
    r.service.observe(overLimit(1, '203.0.113.7', 6, 5, 'crs')); // not a rate-limit block
    r.service.observe(overLimit(1, '203.0.113.7', 11, 10)); // second strike (another limit)
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(r.service.list(1, true)).toEqual([]);
    r.service.observe(overLimit(1, '203.0.113.7', 2, 1)); // third
    await eventually(() => r.service.list(1, false).length === 1);
    const [b] = r.service.list(1, false);
    expect(b).toMatchObject({ ip: '203.0.113.7', source: 'auto', state: 'active', reason: '3 rate-limit strikes within 10 min', expires_at: new Date(T0 + 3_600_000).toISOString() });
    expect(r.service.table.banned(1, parseIp('203.0.113.7')!, T0)).not.toBeNull();
    expect(r.events).toEqual([expect.objectContaining({ site_id: 1, client_ip: '203.0.113.7', group: 'ban', rule_id: 'auto-ban', action: 'block', uri: '/wp-login.php', method: 'POST' })]);
    expect(r.changes.at(-1)!.map((x) => x.ip)).toEqual(['203.0.113.7']);
    // A fourth strike does not ban again.
    r.service.observe(overLimit(1, '203.0.113.7', 3, 2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(r.service.list(1, true)).toHaveLength(1);
  });

  it('never bans where auto-ban is off, on an unknown site, for a denied count or a client that is not an address', async () => {
    let denied = false;
    const memory = new MemoryCounterStore();
    // Denied with the count that would ban (site 2 bans at 1): only `denied` keeps it from banning.
    const counters: CounterStore = { hit: (key, windowMs, now) => (denied ? { count: 1, resetAt: now + windowMs, denied: true } : memory.hit(key, windowMs, now)) };
    const r = await rig([site(1, null), site(2, { strikes: 1, window_minutes: 1, ban_minutes: 1 })], counters);
    r.service.observe(overLimit(1, '203.0.113.7', 6));
    r.service.observe(overLimit(9, '203.0.113.7', 6));
    r.service.observe(overLimit(2, 'not-an-ip', 6));
    denied = true;
    r.service.observe(overLimit(2, '203.0.113.8', 6));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(r.service.list(1, true)).toEqual([]);
    expect(r.service.list(2, true)).toEqual([]);
    expect(r.events).toEqual([]);
  });

  it('adds and lifts manual bans, lists ended ones with --all, and expires by the clock', async () => {
    const r = await rig([site(1, null)]);
    const s = site(1, null);
    const range = await r.service.add(s, { ip: '198.51.100.0/24', minutes: 5, reason: 'scanner' });
    await r.service.add(s, { ip: '203.0.113.9', minutes: 60, reason: '' });
    expect(r.service.table.banned(1, parseIp('198.51.100.3')!, T0)?.id).toBe(range.id);
    expect(r.events.map((e) => e.rule_id)).toEqual(['manual-ban', 'manual-ban']);
    const lifted = await r.service.remove(s, '203.0.113.9');
    expect(lifted).toEqual([expect.objectContaining({ ip: '203.0.113.9', revoked_at: new Date(T0).toISOString() })]);
    expect(await r.service.remove(s, '203.0.113.9')).toEqual([]);
    expect(r.service.table.banned(1, parseIp('203.0.113.9')!, T0)).toBeNull();
    r.clock.now = T0 + 5 * 60_000;
    expect(r.service.list(1, false)).toEqual([]);
    expect(new Set(r.service.list(1, true).map((b) => `${b.ip} ${b.state}`))).toEqual(new Set(['203.0.113.9 revoked', '198.51.100.0/24 expired']));
    expect(r.service.table.banned(1, parseIp('198.51.100.3')!, r.clock.now)).toBeNull();
  });

  it('keeps bans across a reopen, keeps every one of concurrent adds, and drops records ended over a week ago', async () => {
    const r = await rig([site(1, null)]);
    const s = site(1, null);
    await Promise.all(Array.from({ length: 20 }, (_, i) => r.service.add(s, { ip: `203.0.113.${i + 1}`, minutes: 60, reason: '' })));
    expect(r.service.list(1, false)).toHaveLength(20);
    const again = await FileBanStore.open(r.file, silent, () => T0);
    expect(again.all()).toHaveLength(20);
    // A week and a bit later, one more write drops the ended records.
    r.clock.now = T0 + 8 * 86_400_000;
    await r.service.add(s, { ip: '192.0.2.1', minutes: 60, reason: '' });
    expect(r.service.list(1, true).map((b) => b.ip)).toEqual(['192.0.2.1']);
    expect((JSON.parse(readFileSync(r.file, 'utf8')) as { bans: unknown[] }).bans).toHaveLength(1);
  });

  it('moves an unreadable bans.json aside and starts with no bans', async () => {
    const dir = tempDir('wafctl-bans-');
    const file = join(dir, 'bans.json');
    writeFileSync(file, '{"version":1,"bans":[{"id":');
    const r = await rig([site(1, null)], new MemoryCounterStore(), file);
    expect(r.service.list(1, true)).toEqual([]);
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dir).some((f) => f.startsWith('bans.json.unreadable-'))).toBe(true);
    await r.service.add(site(1, null), { ip: '203.0.113.1', minutes: 1, reason: '' });
    expect(existsSync(file)).toBe(true);
  });
});

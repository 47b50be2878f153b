import { afterEach, describe, expect, it } from 'vitest';
import { openJsonlEventStore, type JsonlEventStore } from '../../../../daemon/store/events/jsonl-event-store.js';
import type { NewAccessEntry } from '../../../../shared/schemas/events.js';
import { accessEntry, memoryLogger, NOW, tempDir, wafEvent } from './helpers.js';

const HOUR_S = 3600;
const nowS = Math.floor(NOW / 1000);
let stores: JsonlEventStore[] = [];
afterEach(async () => {
  for (const s of stores) await s.close();
  stores = [];
});

async function open(): Promise<JsonlEventStore> {
  const s = await openJsonlEventStore({ dir: tempDir(), clock: () => NOW, logger: memoryLogger(), retentionEveryMs: 0, snapshotEveryMs: 0 });
  stores.push(s);
  return s;
}

/** The edge stores the country it looked up beside the spec 2.9 fields. */
const withCountry = (country: string, over: Partial<NewAccessEntry> = {}): NewAccessEntry => ({ ...accessEntry(over), country }) as NewAccessEntry;

describe('event store top lists', () => {
  it('ranks IPs, URI paths and statuses of the period by requests, with their blocked counts', async () => {
    const s = await open();
    await s.appendAccessEntries([
      accessEntry({ client_ip: '203.0.113.9', uri: '/wp-login.php?a=1', status: 403, blocked: true }),
      accessEntry({ client_ip: '203.0.113.9', uri: '/wp-login.php?a=2', status: 403, blocked: true }),
      accessEntry({ client_ip: '203.0.113.9', uri: '/', status: 200 }),
      accessEntry({ client_ip: '198.51.100.1', uri: '/', status: 200 }),
      accessEntry({ client_ip: '198.51.100.2', uri: '/feed/', status: 304 }),
      // Another site's request, and one of this site older than 24 hours: in neither 24h list.
      accessEntry({ site_id: 2, client_ip: '203.0.113.9', uri: '/' }),
      accessEntry({ client_ip: '192.0.2.50', timestamp: nowS - 30 * HOUR_S }),
    ]);
    const ips = await s.topList({ site_id: 1, period: '24h', kind: 'ips', limit: 2 });
    expect(ips).toEqual({
      kind: 'ips', limit: 2, total: 5, distinct: 3, exact: true,
      items: [{ key: '203.0.113.9', count: 3, blocked: 2 }, { key: '198.51.100.1', count: 1, blocked: 0 }],
    });
    const uris = await s.topList({ site_id: 1, period: '24h', kind: 'uris', limit: 10 });
    expect(uris.items).toEqual([{ key: '/', count: 2, blocked: 0 }, { key: '/wp-login.php', count: 2, blocked: 2 }, { key: '/feed/', count: 1, blocked: 0 }]);
    const statuses = await s.topList({ site_id: 1, period: '24h', kind: 'statuses', limit: 10 });
    expect(statuses.items.map((i) => [i.key, i.count])).toEqual([['200', 2], ['403', 2], ['304', 1]]);
    // The longer period takes the older request too.
    expect((await s.topList({ site_id: 1, period: '7d', kind: 'ips', limit: 10 })).total).toBe(6);
  });

  it('ranks rule ids of WAF events with their group, counting events of blocked requests', async () => {
    const s = await open();
    await s.appendWafEvents([
      wafEvent({ rule_id: '942100', action: 'block' }),
      wafEvent({ rule_id: '942100', action: 'log' }),
      wafEvent({ rule_id: '200002', group: 'cms', action: 'drop' }),
      wafEvent({ rule_id: '942100', site_id: 3 }),
    ]);
    const rules = await s.topList({ site_id: 1, period: '24h', kind: 'rules', limit: 10 });
    expect(rules.items).toEqual([{ key: '942100', count: 2, blocked: 1, group: 'crs' }, { key: '200002', count: 1, blocked: 1, group: 'cms' }]);
    expect(rules.total).toBe(3);
  });

  it('counts countries as the edge stored them, looks up the ones stored without, and names the rest unknown', async () => {
    const s = await open();
    await s.appendAccessEntries([withCountry('DE'), withCountry('DE'), withCountry(''), accessEntry({ client_ip: '203.0.113.200' })]);
    const countries = await s.topList({ site_id: 1, period: '24h', kind: 'countries', limit: 10, countryOf: (ip) => (ip === '203.0.113.200' ? 'fr' : '') });
    expect(countries.items.map((i) => [i.key, i.count])).toEqual([['DE', 2], ['FR', 1], ['unknown', 1]]);
  });

  it('answers an empty list for a period with nothing, and refuses a bad kind or limit', async () => {
    const s = await open();
    expect(await s.topList({ site_id: 1, period: '90d', kind: 'uris', limit: 10 })).toEqual({ kind: 'uris', limit: 10, total: 0, distinct: 0, exact: true, items: [] });
    await expect(s.topList({ site_id: 1, period: '24h', kind: 'banana' as never, limit: 10 })).rejects.toThrow(/kind/);
    await expect(s.topList({ site_id: 1, period: '24h', kind: 'ips', limit: 0 })).rejects.toThrow(/limit/);
    await expect(s.topList({ site_id: 1, period: '1y' as never, kind: 'ips', limit: 10 })).rejects.toThrow(/period/);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { EventInputError } from '../../../../daemon/store/event-store.js';
import { classifySearch } from '../../../../daemon/store/events/waf-search.js';
import { openJsonlEventStore, type JsonlEventStore } from '../../../../daemon/store/events/jsonl-event-store.js';
import { memoryLogger, NOW, tempDir, wafEvent } from './helpers.js';

const stores: JsonlEventStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});
async function store() {
  const s = await openJsonlEventStore({ dir: tempDir(), clock: () => NOW, logger: memoryLogger(), retentionEveryMs: 0, snapshotEveryMs: 0 });
  stores.push(s);
  return s;
}

describe('search term classification', () => {
  it('reads IPs, CIDRs, rule ids, groups and URI substrings', () => {
    expect(classifySearch(undefined)).toEqual({ kind: 'none' });
    expect(classifySearch('   ')).toEqual({ kind: 'none' });
    expect(classifySearch('2001:DB8::1')).toEqual({ kind: 'ip', key: '2001:db8::1' });
    expect(classifySearch('10.0.0.0/8')).toMatchObject({ kind: 'cidr', cidr: { v4: true, prefix: 8 } });
    expect(classifySearch('942100')).toEqual({ kind: 'rule', key: '942100' });
    expect(classifySearch('CRS')).toEqual({ kind: 'group', key: 'crs' });
    expect(classifySearch('/WP-Login.php')).toEqual({ kind: 'uri', needle: '/wp-login.php' });
    expect(classifySearch('1.2.3')).toEqual({ kind: 'uri', needle: '1.2.3' });
  });

  it("reads the edge's own rule ids (the RULE column of `logs`) as rule ids, not URI substrings", () => {
    for (const id of ['page-protection', 'IP-Blacklist', 'geo-whitelist', 'bot-scanner', 'bot-fake-crawler', 'rate-limit', 'counter:wp_login']) {
      expect(classifySearch(id), id).toEqual({ kind: 'rule', key: id.toLowerCase() });
    }
    expect(classifySearch('/page-protection-docs/')).toEqual({ kind: 'uri', needle: '/page-protection-docs/' });
  });

  it('takes explicit prefixes, and refuses an ip: that is not one', () => {
    expect(classifySearch('uri:942100')).toEqual({ kind: 'uri', needle: '942100' });
    expect(classifySearch('RULE:Abc')).toEqual({ kind: 'rule', key: 'abc' });
    expect(classifySearch('group:custom')).toEqual({ kind: 'group', key: 'custom' });
    expect(classifySearch('ip: 10.0.0.1')).toEqual({ kind: 'ip', key: '10.0.0.1' });
    expect(() => classifySearch('ip:example.com')).toThrow(EventInputError);
    expect(() => classifySearch('uri:')).toThrow(/needs a value/);
  });
});

describe('pagination', () => {
  it('keeps pages stable with the as_of_id cursor while new events arrive', async () => {
    const s = await store();
    await s.appendWafEvents(Array.from({ length: 25 }, (_, i) => wafEvent({ uri: `/old/${i}` })));
    const p1 = await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 });
    await s.appendWafEvents(Array.from({ length: 7 }, (_, i) => wafEvent({ uri: `/new/${i}` })));
    const p2 = await s.searchWafLogs({ site_id: 1, page: 2, per_page: 10, before_id: p1.as_of_id });
    const p3 = await s.searchWafLogs({ site_id: 1, page: 3, per_page: 10, before_id: p1.as_of_id });
    const seen = [...p1.logs, ...p2.logs, ...p3.logs].map((l) => l.id);
    expect(new Set(seen).size).toBe(25);
    expect(p2.pagination).toEqual({ page: 2, per_page: 10, total: 25, total_pages: 3 });
    // The same with a filter (postings chain) and without the cursor: the new events show up.
    const ruleP2 = await s.searchWafLogs({ site_id: 1, page: 2, per_page: 10, search: '942100', before_id: p1.as_of_id });
    expect(ruleP2.logs.map((l) => l.id)).toEqual(p2.logs.map((l) => l.id));
    expect((await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 })).pagination.total).toBe(32);
  });

  it('answers pages past the end with no rows and the exact total', async () => {
    const s = await store();
    await s.appendWafEvents([wafEvent(), wafEvent()]);
    const r = await s.searchWafLogs({ site_id: 1, page: 9, per_page: 10 });
    expect(r.logs).toEqual([]);
    expect(r.pagination).toEqual({ page: 9, per_page: 10, total: 2, total_pages: 1 });
    expect((await s.searchWafLogs({ site_id: 77, page: 1, per_page: 10 })).pagination.total).toBe(0);
  });

  it('rejects bad query parameters with a clear error', async () => {
    const s = await store();
    await expect(s.searchWafLogs({ site_id: 1, page: 0, per_page: 10 })).rejects.toThrow(/page/);
    await expect(s.searchWafLogs({ site_id: 1, page: 1, per_page: 0 })).rejects.toThrow(/per_page/);
    await expect(s.searchWafLogs({ site_id: 1, page: 1.5, per_page: 10 })).rejects.toThrow(/page/);
    await expect(s.analytics({ site_id: 1, period: '1y' as never })).rejects.toThrow(/period/);
  });
});

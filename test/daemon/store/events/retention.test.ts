import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openJsonlEventStore } from '../../../../daemon/store/events/jsonl-event-store.js';
import { accessEntry, memoryLogger, NOW, tempDir, wafEvent } from './helpers.js';

const DAY = 86_400_000;

describe('retention', () => {
  it('drops whole day segments older than retention_days, with their index entries and rollups', async () => {
    const dir = tempDir();
    const opts = { dir, clock: () => NOW, logger: memoryLogger(), retentionDays: 3, retentionEveryMs: 0, snapshotEveryMs: 0 };
    const s = await openJsonlEventStore(opts);
    for (let d = 0; d < 6; d++) {
      await s.appendWafEvents([wafEvent({ timestamp_ms: NOW - d * DAY, uri: `/day${d}` })]);
      await s.appendAccessEntries([accessEntry({ timestamp: Math.floor((NOW - d * DAY) / 1000), client_ip: `10.0.0.${d}` })]);
    }
    expect((await s.analytics({ site_id: 1, period: '7d' })).total_requests).toBe(6);
    const report = await s.applyRetention();
    expect(report.kept_from).toBe('2026-11-18');
    expect(report.deleted.sort()).toEqual(['access-2026-11-16.jsonl', 'access-2026-11-17.jsonl', 'waf-2026-11-16.jsonl', 'waf-2026-11-17.jsonl']);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'))).toHaveLength(8);
    const page = await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 });
    expect(page.logs.map((l) => l.uri)).toEqual(['/day3', '/day2', '/day1', '/day0']);
    expect((await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10, search: 'day5' })).pagination.total).toBe(0);
    const a = await s.analytics({ site_id: 1, period: '7d' });
    expect([a.total_requests, a.unique_visitors]).toEqual([4, 4]);
    // Still consistent after a restart, and appends go on.
    await s.close();
    const s2 = await openJsonlEventStore(opts);
    expect((await s2.searchWafLogs({ site_id: 1, page: 1, per_page: 10 })).pagination.total).toBe(4);
    expect((await s2.analytics({ site_id: 1, period: '7d' })).total_requests).toBe(4);
    await s2.appendWafEvents([wafEvent({ uri: '/later' })]);
    expect((await s2.applyRetention()).deleted).toEqual([]);
    await s2.close();
  });
});

// /analytics from rollups against a brute-force count of the same access entries.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openJsonlEventStore } from '../../../../daemon/store/events/jsonl-event-store.js';
import { PERIOD_HOURS, type AnalyticsPeriod } from '../../../../shared/schemas/events.js';
import { accessEntry, memoryLogger, NOW, tempDir } from './helpers.js';

const H = 3_600_000;

describe('analytics match a brute-force count', () => {
  it('hourly points, totals, blocked and unique visitors for any now and period', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            site_id: fc.constantFrom(1, 2),
            secondsAgo: fc.integer({ min: -3600, max: 95 * 86_400 }),
            ip: fc.integer({ min: 0, max: 400 }),
            status: fc.constantFrom(200, 403, 404),
            blocked: fc.option(fc.boolean(), { nil: undefined }),
          }),
          { maxLength: 300 },
        ),
        fc.integer({ min: -48 * 60, max: 48 * 60 }),
        fc.constantFrom<AnalyticsPeriod>('24h', '7d', '30d', '90d'),
        async (raw, nowShiftMin, period) => {
          const dir = tempDir('wafctl-analytics-');
          const opts = { dir, clock: () => NOW, logger: memoryLogger(), retentionEveryMs: 0, snapshotEveryMs: 0 };
          let store = await openJsonlEventStore(opts);
          const entries = raw.map((r) =>
            accessEntry({ site_id: r.site_id, timestamp: Math.floor(NOW / 1000) - r.secondsAgo, client_ip: r.ip < 200 ? `10.0.${r.ip >> 8}.${r.ip & 255}` : `2001:db8::${r.ip.toString(16)}`, status: r.status, blocked: r.blocked }),
          );
          if (entries.length) await store.appendAccessEntries(entries);
          const now = NOW + nowShiftMin * 60_000 + 17_000;
          const n = PERIOD_HOURS[period];
          const end = Math.ceil(now / H);
          for (const pass of [0, 1]) {
            if (pass === 1) {
              await store.close();
              store = await openJsonlEventStore(opts);
            }
            for (const site of [1, 2, 3]) {
              const got = await store.analytics({ site_id: site, period, now });
              const inPeriod = entries.filter((e) => e.site_id === site && Math.floor((e.timestamp * 1000) / H) >= end - n && Math.floor((e.timestamp * 1000) / H) < end);
              const blocked = (e: (typeof entries)[number]) => e.blocked ?? e.status === 403;
              expect(got.period).toBe(period);
              expect(got.hourly_data).toHaveLength(n);
              expect(got.hourly_data[0].hour).toBe(new Date((end - n) * H).toISOString());
              expect(got.hourly_data[n - 1].hour).toBe(new Date((end - 1) * H).toISOString());
              expect(got.total_requests).toBe(inPeriod.length);
              expect(got.requests_blocked).toBe(inPeriod.filter(blocked).length);
              const perHour = new Map<number, [number, number]>();
              for (const e of inPeriod) {
                const h = Math.floor((e.timestamp * 1000) / H);
                const c = perHour.get(h) ?? [0, 0];
                c[0]++;
                if (blocked(e)) c[1]++;
                perHour.set(h, c);
              }
              got.hourly_data.forEach((p, i) => expect([p.requests, p.blocked]).toEqual(perHour.get(end - n + i) ?? [0, 0]));
              const exact = new Set(inPeriod.map((e) => e.client_ip)).size;
              expect(Math.abs(got.unique_visitors - exact)).toBeLessThanOrEqual(Math.max(2, 0.02 * exact));
            }
          }
          await store.close();
        },
      ),
      { numRuns: 15 },
    );
  });
});

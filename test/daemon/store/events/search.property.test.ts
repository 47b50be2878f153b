// /waf-logs search against a brute-force scan of the same events, on random data (search-model.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openJsonlEventStore } from '../../../../daemon/store/events/jsonl-event-store.js';
import { memoryLogger, NOW, tempDir } from './helpers.js';
import { eventArb, eventsOf, matches, queryArb, searchText } from './search-model.js';

describe('search matches a brute-force scan', () => {
  it('totals, pages and order, with and without a snapshot cursor, before and after reopen', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(eventArb, { minLength: 0, maxLength: 120 }),
        fc.array(fc.tuple(queryArb, fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 30 }), fc.option(fc.nat({ max: 190 }), { nil: undefined })), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(eventArb, { minLength: 0, maxLength: 60 }),
        async (raw, queries, chunks, rawAfterReopen) => {
          const dir = tempDir('wafctl-search-');
          const opts = { dir, clock: () => NOW, logger: memoryLogger(), retentionEveryMs: 0, snapshotEveryMs: 0 };
          let store = await openJsonlEventStore(opts);
          const events = eventsOf(raw);
          // Appended in a few concurrent calls: ids follow call order.
          const size = Math.ceil(events.length / chunks) || 1;
          const parts = Array.from({ length: chunks }, (_, i) => events.slice(i * size, (i + 1) * size));
          const ids = (await Promise.all(parts.map((p) => store.appendWafEvents(p)))).flat();
          const stored = events.map((e, i) => ({ ...e, id: ids[i] }));
          // Pass 1 reads the restored index; pass 2 appends into it first (postings and
          // columns restored from the snapshot, then grown; keys new to a site or to the index).
          for (const pass of [0, 1, 2]) {
            if (pass === 1) {
              await store.close();
              store = await openJsonlEventStore(opts);
            }
            if (pass === 2) {
              const more = eventsOf(rawAfterReopen);
              const moreIds = await store.appendWafEvents(more);
              more.forEach((e, i) => stored.push({ ...e, id: moreIds[i] }));
            }
            for (const [q, page, perPage, beforeId] of queries) {
              for (const site of [1, 2]) {
                const expected = stored.filter((e) => e.site_id === site && matches(e, q) && (beforeId === undefined || e.id <= beforeId)).sort((a, b) => b.id - a.id);
                const got = await store.searchWafLogs({ site_id: site, page, per_page: perPage, search: searchText(q), before_id: beforeId });
                expect(got.pagination.total).toBe(expected.length);
                expect(got.pagination.total_pages).toBe(Math.ceil(expected.length / perPage));
                const want = expected.slice((page - 1) * perPage, page * perPage);
                expect(got.logs.map((l) => l.id)).toEqual(want.map((e) => e.id));
                expect(got.logs.map((l) => [l.client_ip, l.uri, l.waf_rule_id, l.group, l.host])).toEqual(want.map((e) => [e.client_ip, e.uri, e.rule_id, e.group, e.host]));
              }
            }
          }
          await store.close();
        },
      ),
      { numRuns: 40 },
    );
  });
});

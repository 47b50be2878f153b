// The batch line encoder must produce, byte for byte, what encoding each line alone produces,
// whatever the entries hold: strings that look like the boundary it cuts at, nested objects
// (more boundaries than entries), entries that start with different keys or with a key JSON
// leaves out, integer-like keys (which JSON puts first), an entry's own `id`, toJSON, values
// JSON cannot take.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACCESS_LINES, WAF_LINES, encodeLines, type LineFormat } from '../../../../daemon/store/events/entry-lines.js';
import type { NewAccessEntry, NewWafEvent } from '../../../../shared/schemas/events.js';
import { accessEntry, wafEvent } from './helpers.js';

const oneByOne = <T>(ids: number[], entries: T[], format: LineFormat<T>): string => entries.map((e, i) => format.line(ids[i], e)).join('');
const idsFrom = (first: number, n: number): number[] => Array.from({ length: n }, (_, i) => first + i);

// Strings built from the pieces that matter to the boundary search and to JSON escaping.
const tricky = fc
  .array(fc.constantFrom('},{"id":', '},{', '"', '\\', '\n', '{"id":1}', 'é', '😀', '\ud800', ',', '}', 'a', 'İ', '\u0000'), { maxLength: 6 })
  .map((parts) => parts.join(''));
const extraValue = fc.oneof(
  tricky,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.record({ id: fc.integer(), x: tricky }),
  fc.array(fc.record({ id: fc.nat() }), { maxLength: 3 }),
  fc.record({ site_id: fc.integer(), x: tricky }),
  fc.array(fc.record({ site_id: fc.nat(), timestamp_ms: fc.nat() }), { maxLength: 3 }),
);
const extras = fc.dictionary(fc.oneof(fc.constantFrom('0', '7', 'id', 'user_agent', 'site_id', '},{"id":', '},{"site_id":'), tricky), extraValue, { maxKeys: 3 });
/** The extra fields after the entry's own (the usual order) or before them (other first keys). */
const merge = <T extends object>(base: T, extra: object, extraFirst: boolean): T => (extraFirst ? { ...extra, ...base } : { ...base, ...extra }) as T;

describe('encodeLines', () => {
  it('equals the lines built one by one, for WAF events with any extra fields', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(tricky, tricky, extras, fc.boolean()), { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 1e12 }), (rows, first) => {
        const entries: NewWafEvent[] = rows.map(([uri, msg, extra, extraFirst]) => merge(wafEvent({ uri, msg }), extra, extraFirst));
        const ids = idsFrom(first, entries.length);
        expect(encodeLines(ids, entries, WAF_LINES).toString('utf8')).toBe(oneByOne(ids, entries, WAF_LINES));
      }),
      { numRuns: 400 },
    );
  });

  it('equals the lines built one by one, for access entries with and without `blocked`', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(tricky, fc.option(fc.boolean(), { nil: undefined }), fc.constantFrom(200, 403), extras, fc.boolean()), { minLength: 1, maxLength: 8 }), (rows) => {
        const entries: NewAccessEntry[] = rows.map(([uri, blocked, status, extra, extraFirst]) => {
          const e = merge(accessEntry({ uri, status }), extra, extraFirst);
          if (blocked !== undefined) e.blocked = blocked;
          return e;
        });
        const ids = idsFrom(5, entries.length);
        const text = encodeLines(ids, entries, ACCESS_LINES).toString('utf8');
        expect(text).toBe(oneByOne(ids, entries, ACCESS_LINES));
        for (const [i, line] of text.split('\n').slice(0, -1).entries()) {
          const stored = JSON.parse(line) as { id: number; blocked: boolean };
          expect(stored.id).toBe(ids[i]);
          expect(stored.blocked).toBe(entries[i].blocked ?? entries[i].status === 403);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('puts our id first even when an entry brings its own id or integer-like keys', () => {
    const entries = [wafEvent(), { ...wafEvent(), id: 99 }, { 3: 'x', ...wafEvent() }] as NewWafEvent[];
    const lines = encodeLines([10, 11, 12], entries, WAF_LINES).toString().split('\n');
    expect(lines.slice(0, 3).map((l) => l.slice(0, 10))).toEqual(['{"id":10,"', '{"id":11,"', '{"id":12,"']);
    expect(lines.slice(0, 3).map((l) => (JSON.parse(l) as { id: number }).id)).toEqual([10, 11, 12]);
  });

  it('takes the one-stringify path for plain batches (same bytes as line by line)', () => {
    const entries = Array.from({ length: 50 }, (_, i) => wafEvent({ uri: `/p/${i}?q="},{"site_id":1}` }));
    const ids = idsFrom(1, 50);
    const stringify = JSON.stringify;
    let calls = 0;
    JSON.stringify = ((...a: Parameters<typeof stringify>) => (calls++, stringify(...a))) as typeof stringify;
    try {
      expect(encodeLines(ids, entries, WAF_LINES).toString()).toBe(oneByOne(ids, entries, WAF_LINES));
    } finally {
      JSON.stringify = stringify;
    }
    expect(calls).toBe(1 + 50); // the batch once, then oneByOne's 50 lines
  });

  it('throws what JSON.stringify throws (the store turns it into a rejection)', () => {
    expect(() => encodeLines([1], [{ ...wafEvent(), big: 1n }] as unknown as NewWafEvent[], WAF_LINES)).toThrow(TypeError);
  });
});

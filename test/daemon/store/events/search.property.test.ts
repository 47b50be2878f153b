// /waf-logs search against a brute-force scan of the same events, on random data.
import ipaddr from 'ipaddr.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openJsonlEventStore } from '../../../../daemon/store/events/jsonl-event-store.js';
import type { NewWafEvent } from '../../../../shared/schemas/events.js';
import { memoryLogger, NOW, tempDir, wafEvent } from './helpers.js';

const IPS = ['10.0.0.1', '10.0.0.2', '10.0.1.9', '10.1.0.1', '192.168.7.7', '2001:db8::1', '2001:DB8::2', '2001:db8:1::5', '2a00:1450::1', '::ffff:10.0.0.1'];
const RULES = ['942100', '942200', '200001', 'Rule-X', 'rule-x'];
const GROUPS = ['crs', 'cms', 'Custom', 'CUSTOM'];
const URI_PARTS = ['/wp-login.php', '/xmlrpc.php', '?a=1', '&B=Select', '/etc/PASSWD', '/%2e%2e/', '/Ünïcode', '/wp-json/wp/v2'];

const canonical = (ip: string) => ipaddr.process(ip).toString();

type Query = { kind: 'none' } | { kind: 'ip' | 'cidr' | 'rule' | 'group' | 'uri'; term: string };

function matches(e: NewWafEvent, q: Query): boolean {
  switch (q.kind) {
    case 'none':
      return true;
    case 'ip':
      return canonical(e.client_ip) === canonical(q.term);
    case 'cidr': {
      const [net, len] = ipaddr.parseCIDR(q.term);
      const ip = ipaddr.process(e.client_ip);
      return ip.kind() === net.kind() && ip.match([net, len] as never);
    }
    case 'rule':
      return e.rule_id.toLowerCase() === q.term.toLowerCase();
    case 'group':
      return e.group.toLowerCase() === q.term.toLowerCase();
    case 'uri':
      return e.uri.toLowerCase().includes(q.term.toLowerCase());
  }
}

const eventArb = fc.record({
  site_id: fc.constantFrom(1, 2),
  client_ip: fc.constantFrom(...IPS),
  rule_id: fc.constantFrom(...RULES),
  group: fc.constantFrom(...GROUPS),
  uri: fc.array(fc.constantFrom(...URI_PARTS), { minLength: 1, maxLength: 3 }).map((p) => p.join('')),
  minutesAgo: fc.integer({ min: 0, max: 3 * 24 * 60 }),
});

const queryArb: fc.Arbitrary<Query> = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.constantFrom(...IPS, '10.0.0.01'.replace('01', '1'), '2001:0db8:0:0:0:0:0:1').map((term) => ({ kind: 'ip' as const, term })),
  fc.tuple(fc.constantFrom(...IPS), fc.integer({ min: 0, max: 128 })).map(([ip, len]) => {
    const a = ipaddr.process(ip);
    const bits = a.kind() === 'ipv4' ? len % 33 : len;
    const net = ipaddr.IPv4.isValid(a.toString()) && a.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(`${a}/${bits}`) : ipaddr.IPv6.networkAddressFromCIDR(`${a}/${bits}`);
    return { kind: 'cidr' as const, term: `${net.toString()}/${bits}` };
  }),
  fc.constantFrom(...RULES, 'rule-x', '999999').map((term) => ({ kind: 'rule' as const, term })),
  fc.constantFrom(...GROUPS, 'CRS', 'none').map((term) => ({ kind: 'group' as const, term })),
  fc.tuple(fc.constantFrom(...URI_PARTS), fc.nat(), fc.nat(), fc.boolean()).map(([part, a, b, upper]) => {
    const i = a % part.length;
    const j = i + 1 + (b % (part.length - i));
    const t = part.slice(i, j);
    return { kind: 'uri' as const, term: upper ? t.toUpperCase() : t };
  }),
);

const searchText = (q: Query): string | undefined => (q.kind === 'none' ? undefined : `${q.kind === 'cidr' ? 'ip' : q.kind}:${q.term}`);

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
          const events = raw.map((r) => wafEvent({ site_id: r.site_id, client_ip: r.client_ip, rule_id: r.rule_id, group: r.group, uri: r.uri, timestamp_ms: NOW - r.minutesAgo * 60_000 }));
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
              const more = rawAfterReopen.map((r) => wafEvent({ site_id: r.site_id, client_ip: r.client_ip, rule_id: r.rule_id, group: r.group, uri: r.uri, timestamp_ms: NOW - r.minutesAgo * 60_000 }));
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

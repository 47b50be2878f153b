// The /waf-logs search model shared by the property tests of both event stores (the JSONL store's
// search.property.test.ts and the cluster's test/cluster/search.property.test.ts): random events
// and queries, and what a query must find, by brute force.
import ipaddr from 'ipaddr.js';
import fc from 'fast-check';
import type { NewWafEvent } from '../../../../shared/schemas/events.js';
import { NOW, wafEvent } from './helpers.js';

export const IPS = ['10.0.0.1', '10.0.0.2', '10.0.1.9', '10.1.0.1', '192.168.7.7', '2001:db8::1', '2001:DB8::2', '2001:db8:1::5', '2a00:1450::1', '::ffff:10.0.0.1'];
export const RULES = ['942100', '942200', '200001', 'Rule-X', 'rule-x'];
export const GROUPS = ['crs', 'cms', 'Custom', 'CUSTOM'];
export const URI_PARTS = ['/wp-login.php', '/xmlrpc.php', '?a=1', '&B=Select', '/etc/PASSWD', '/%2e%2e/', '/Ünïcode', '/wp-json/wp/v2'];

const canonical = (ip: string) => ipaddr.process(ip).toString();

export type Query = { kind: 'none' } | { kind: 'ip' | 'cidr' | 'rule' | 'group' | 'uri'; term: string };

export function matches(e: NewWafEvent, q: Query): boolean {
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

export const eventArb = fc.record({
  site_id: fc.constantFrom(1, 2),
  client_ip: fc.constantFrom(...IPS),
  rule_id: fc.constantFrom(...RULES),
  group: fc.constantFrom(...GROUPS),
  uri: fc.array(fc.constantFrom(...URI_PARTS), { minLength: 1, maxLength: 3 }).map((p) => p.join('')),
  minutesAgo: fc.integer({ min: 0, max: 3 * 24 * 60 }),
});

export const queryArb: fc.Arbitrary<Query> = fc.oneof(
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

export const searchText = (q: Query): string | undefined => (q.kind === 'none' ? undefined : `${q.kind === 'cidr' ? 'ip' : q.kind}:${q.term}`);

export type RawEvent = typeof eventArb extends fc.Arbitrary<infer T> ? T : never;

/** The events the raw draws stand for, `minutesAgo` before NOW. */
export function eventsOf(raw: readonly RawEvent[]): NewWafEvent[] {
  return raw.map((r) => wafEvent({ site_id: r.site_id, client_ip: r.client_ip, rule_id: r.rule_id, group: r.group, uri: r.uri, timestamp_ms: NOW - r.minutesAgo * 60_000 }));
}

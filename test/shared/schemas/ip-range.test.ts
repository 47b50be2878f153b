import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { canonicalIpOrCidr, parseIpRange } from '../../../shared/schemas/ip.js';
import { AddIpRuleBodySchema } from '../../../shared/schemas/management-api.js';
import { compileIpSet, parseIp } from '../../../daemon/proxy/ip-set.js';
import { siteInputProblem } from '../../../daemon/proxy/snapshot.js';

// The one IP parser (security review H1): what the API accepts, the edge compiles, with the same
// meaning; what it refuses, the edge refuses too. IPv4-mapped spellings are stored as IPv4.

const octet = fc.nat(255);
const v4Parts = fc.tuple(octet, octet, octet, octet);
const hex4 = (n: number, upper: boolean, pad: boolean) => {
  const h = n.toString(16);
  const t = pad ? h.padStart(4, '0') : h;
  return upper ? t.toUpperCase() : t;
};

/** Spellings of the IPv4-mapped address of `p` ([a, b, c, d]), each a valid IPv6 text. */
function mappedSpellings(p: number[], upper: boolean, pad: boolean): string[] {
  const hi = p[0] * 256 + p[1];
  const lo = p[2] * 256 + p[3];
  const ffff = upper ? 'FFFF' : 'ffff';
  const dotted = p.join('.');
  return [
    `::${ffff}:${dotted}`,
    `0:0:0:0:0:${ffff}:${dotted}`,
    `0000:0000:0000:0000:0000:${ffff}:${dotted}`,
    `::0:${ffff}:${dotted}`,
    `0::${ffff}:${dotted}`,
    `::${ffff}:${hex4(hi, upper, pad)}:${hex4(lo, upper, pad)}`,
    `0:0:0:0:0:${ffff}:${hex4(hi, upper, pad)}:${hex4(lo, upper, pad)}`,
  ];
}

/** [a, b, c, d] with the bits past `bits` cleared. */
function network(p: number[], bits: number): number[] {
  const n = ((p[0] << 24) >>> 0) + (p[1] << 16) + (p[2] << 8) + p[3];
  const size = 2 ** (32 - bits);
  const start = Math.floor(n / size) * size;
  return [start >>> 24, (start >>> 16) & 255, (start >>> 8) & 255, start & 255];
}

/** Each layer must agree: the API's body schema, the edge's input schema and the compiled IP set. */
function layers(entry: string): { api: boolean; edgeInput: boolean; compiles: boolean } {
  let compiles = true;
  try {
    compileIpSet([entry]);
  } catch {
    compiles = false;
  }
  return {
    api: AddIpRuleBodySchema.safeParse({ ip: entry }).success,
    edgeInput: siteInputProblem({ id: 1, domain: 'a.test', origin: 'http://127.0.0.1:9', ipWhitelist: [entry] }) === null,
    compiles,
  };
}

describe('parseIpRange: IPv4-mapped spellings are the IPv4 entry', () => {
  it.each([
    ['::ffff:10.0.0.0/104', '10.0.0.0/8'],
    ['::FFFF:10.0.0.0/104', '10.0.0.0/8'],
    ['::ffff:a00:0/104', '10.0.0.0/8'],
    ['0:0:0:0:0:ffff:0a00:0000/104', '10.0.0.0/8'],
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['::ffff:1.2.3.4/128', '1.2.3.4/32'],
    ['::ffff:0:0/96', '0.0.0.0/0'],
    ['::ffff:0.0.0.0/96', '0.0.0.0/0'],
    ['::ffff:192.168.0.0/112', '192.168.0.0/16'],
    [' ::ffff:10.0.0.0/104 ', '10.0.0.0/8'],
    // Not mapped: stays IPv6.
    ['::/0', '::/0'],
    ['0::1.2.3.4', '::102:304'],
    ['64:ff9b::1.2.3.4', '64:ff9b::102:304'],
    ['::fffe:1.2.3.4', '::fffe:102:304'],
    ['2001:DB8:0::/48', '2001:db8::/48'],
  ])('%j is stored as %j', (input, stored) => {
    expect(canonicalIpOrCidr(input)).toBe(stored);
    expect(canonicalIpOrCidr(stored)).toBe(stored);
    expect(layers(input)).toEqual({ api: true, edgeInput: true, compiles: true });
  });

  it('every spelling of a mapped network or address is stored as the IPv4 one, and matches the same clients', () => {
    fc.assert(fc.property(v4Parts, fc.nat(32), fc.boolean(), fc.boolean(), fc.boolean(), (parts, bits, upper, pad, withPrefix) => {
      const net = network(parts, withPrefix ? bits : 32);
      const v4 = withPrefix ? `${net.join('.')}/${bits}` : net.join('.');
      for (const spelling of mappedSpellings(net, upper, pad)) {
        const entry = withPrefix ? `${spelling}/${bits + 96}` : spelling;
        expect(canonicalIpOrCidr(entry), entry).toBe(v4);
        expect(layers(entry), entry).toEqual({ api: true, edgeInput: true, compiles: true });
        // The compiled set holds the IPv4 clients of the range, seen either way.
        const set = compileIpSet([entry]);
        const inside = ipaddr.IPv4.parse(parts.join('.'));
        const inRange = inside.match(ipaddr.IPv4.parse(net.join('.')), withPrefix ? bits : 32);
        expect(set.has(parseIp(parts.join('.'))!), entry).toBe(inRange);
        expect(set.has(parseIp(`::ffff:${parts.join('.')}`)!), entry).toBe(inRange);
      }
    }), { numRuns: 400 });
  });

  it('a mapped range with host bits set is refused in every spelling, naming the network', () => {
    fc.assert(fc.property(v4Parts, fc.integer({ min: 0, max: 31 }), (parts, bits) => {
      const net = network(parts, bits);
      fc.pre(net.join('.') !== parts.join('.'));
      for (const spelling of mappedSpellings(parts, false, false)) {
        const result = parseIpRange(`${spelling}/${bits + 96}`);
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.reason).toMatch(/host bits/);
        expect(layers(`${spelling}/${bits + 96}`)).toEqual({ api: false, edgeInput: false, compiles: false });
      }
    }), { numRuns: 200 });
  });
});

describe('parseIpRange: refusals, the same at the API and the edge', () => {
  it.each([
    ['10.1.2.3/8', /host bits set: the network is 10\.0\.0\.0\/8/],
    ['2001:db8::1/48', /host bits set: the network is 2001:db8::\/48/],
    ['::ffff:10.0.0.1/104', /host bits/],
    ['::ffff:1.2.3.4/95', /host bits/],
    ['::ffff:0:0/80', /host bits/],
    ['1.2.3.4/33', /prefix length "33": IPv4 takes 0-32/],
    ['::ffff:10.0.0.0/129', /prefix length "129": IPv6 takes 0-128/],
    ['::1/129', /prefix length/],
    ['10.0.0.0/08', /prefix length "08"/],
    ['10.0.0.0/+8', /prefix length/],
    ['10.0.0.0/-1', /prefix length/],
    ['10.0.0.0/ 8', /prefix length/],
    ['10.0.0.0/0x8', /prefix length/],
    ['10.0.0.0/8.0', /prefix length/],
    ['10.0.0.0/', /prefix length/],
    ['10.0.0.0/8/8', /prefix length/],
    ['::1.2.3.4', /deprecated IPv4-compatible/],
    ['::1.2.3.4/128', /deprecated IPv4-compatible/],
    ['fe80::1%eth0', /zone id/],
    ['::ffff:1.2.3.4%1', /zone id/],
    ['fe80::%25eth0/64', /zone id/],
    ['::ffff:010.0.0.1', /not an IPv6/],
    ['::ffff:0x7f.0.0.1', /not an IPv6/],
    ['::ffff:1.2.3', /not an IPv6/],
    ['::ffff:1.2.3.256', /not an IPv6/],
    ['010.0.0.1', /not an IPv4/],
    ['0x7f.0.0.1', /not an IPv4/],
    ['127.1', /not an IPv4/],
    ['2130706433', /not an IPv4/],
    ['1.2.3.4.', /not an IPv4/],
    ['１.2.3.4', /not an IPv4/],
    ['1.2.3.4 5', /not an IPv4/],
    ['1:2:3:4:5:6:7:8:9', /not an IPv6/],
    ['1::2::3', /not an IPv6/],
    ['::ffff:1.2.3.4:5', /not an IPv6/],
    ['[::1]', /not an IPv6/],
    ['example.com', /not an IPv4/],
    ['', /empty/],
    ['   ', /empty/],
    [`${'0:'.repeat(40)}1`, /longer than 64/],
  ])('refuses %j (%s)', (input, reason) => {
    const result = parseIpRange(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
    expect(layers(input)).toEqual({ api: false, edgeInput: false, compiles: false });
  });

  it('any text: the API, the edge input and the compiled set accept the same entries', () => {
    const ipish = fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF:./%x '.split('')), maxLength: 48 });
    const mutated = fc.tuple(v4Parts, fc.nat(140), fc.constantFrom('', '::ffff:', '::', '0::ffff:', '::FFFF:'))
      .map(([p, bits, pre]) => `${pre}${p.join('.')}/${bits}`);
    fc.assert(fc.property(fc.oneof(ipish, mutated, fc.string({ maxLength: 20 })), (entry) => {
      const { api, edgeInput, compiles } = layers(entry);
      expect({ edgeInput, compiles }, entry).toEqual({ edgeInput: api, compiles: api });
      if (api) expect(canonicalIpOrCidr(canonicalIpOrCidr(entry)!), entry).toBe(canonicalIpOrCidr(entry));
    }), { numRuns: 2000 });
  });
});

import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { compileIpSet, parseIp } from '../../../daemon/proxy/ip-set.js';

const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.'));
const v6 = fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 }).map((p) => p.map((x) => x.toString(16)).join(':'));
// Rule entries name networks (host bits clear): the parser refuses 10.1.2.3/8 (shared/schemas/ip.ts).
const cidr4 = fc.tuple(v4, fc.nat(32)).map(([a, b]) => `${ipaddr.IPv4.networkAddressFromCIDR(`${a}/${b}`).toString()}/${b}`);
const cidr6 = fc.tuple(v6, fc.nat(128)).map(([a, b]) => `${ipaddr.IPv6.networkAddressFromCIDR(`${a}/${b}`).toString()}/${b}`);

/** The reference: ipaddr.js's own CIDR match, entry by entry. */
function reference(entries: string[], ip: string): boolean {
  const addr = ipaddr.process(ip);
  return entries.some((e) => {
    const [net, bits] = e.includes('/') ? ipaddr.parseCIDR(e) : [ipaddr.parse(e), ipaddr.parse(e).kind() === 'ipv4' ? 32 : 128];
    return net.kind() === addr.kind() && addr.match(net, bits as number);
  });
}

describe('IpSet', () => {
  it('agrees with ipaddr.js on random lists and addresses (IPv4 and IPv6)', () => {
    fc.assert(fc.property(fc.array(fc.oneof(v4, cidr4, v6, cidr6), { maxLength: 40 }), fc.array(fc.oneof(v4, v6), { minLength: 1, maxLength: 20 }), (entries, ips) => {
      const set = compileIpSet(entries);
      for (const ip of ips) expect(set.has(parseIp(ip)!)).toBe(reference(entries, ip));
    }), { numRuns: 300 });
  });

  it('matches addresses near range edges and IPv4-mapped clients', () => {
    const set = compileIpSet(['10.0.0.0/8', '192.168.1.0/24', '2001:db8::/32', '0.0.0.0/32']);
    const has = (ip: string) => set.has(parseIp(ip)!);
    expect(has('10.0.0.0')).toBe(true);
    expect(has('10.255.255.255')).toBe(true);
    expect(has('11.0.0.0')).toBe(false);
    expect(has('9.255.255.255')).toBe(false);
    expect(has('::ffff:10.1.2.3')).toBe(true);
    expect(has('192.168.1.255')).toBe(true);
    expect(has('192.168.2.0')).toBe(false);
    expect(has('2001:db8:ffff::1')).toBe(true);
    expect(has('2001:db9::')).toBe(false);
    expect(has('0.0.0.0')).toBe(true);
    expect(compileIpSet(['0.0.0.0/0']).has(parseIp('255.255.255.255')!)).toBe(true);
    expect(compileIpSet(['::/0']).has(parseIp('ffff::1')!)).toBe(true);
    expect(compileIpSet(['::/0']).has(parseIp('1.2.3.4')!)).toBe(false);
  });

  it('parses IPv6 like ipaddr.js, to RFC 5952 text', () => {
    fc.assert(fc.property(v6, fc.nat(7), fc.nat(7), (addr, from, len) => {
      // Zero a run of groups so "::" forms appear in both directions.
      const parts = addr.split(':');
      for (let i = from; i < Math.min(8, from + len); i++) parts[i] = '0';
      const text = parts.join(':');
      const compressed = ipaddr.IPv6.parse(text).toString();
      for (const form of [text, compressed, text.toUpperCase()]) {
        const key = parseIp(form)!;
        if (ipaddr.IPv6.parse(text).isIPv4MappedAddress()) expect(key.v).toBe(4);
        else expect(key).toMatchObject({ v: 6, text: compressed });
      }
    }), { numRuns: 500 });
    expect(parseIp('::ffff:192.0.2.1')).toMatchObject({ v: 4, text: '192.0.2.1' });
    expect(parseIp('64:ff9b::192.0.2.1')).toMatchObject({ v: 6, text: '64:ff9b::c000:201' });
    expect(parseIp('fe80::1%eth0')).toMatchObject({ v: 6, text: 'fe80::1' });
    for (const bad of ['1::2::3', '1:2:3:4:5:6:7:8:9', '12345::', ':::', '1:2:3:4:5:6:7', 'g::1', '::1.2.3.256']) expect(parseIp(bad)).toBeNull();
  });

  it('rejects what is not an address', () => {
    expect(parseIp('1.2.3.256')).toBeNull();
    expect(parseIp('example.com')).toBeNull();
    expect(parseIp('')).toBeNull();
    expect(() => compileIpSet(['10.0.0.0/33'])).toThrow(/prefix/);
    expect(() => compileIpSet(['nope'])).toThrow(/not an IPv4/);
    expect(() => compileIpSet(['10.1.2.3/8'])).toThrow(/host bits/);
  });
});

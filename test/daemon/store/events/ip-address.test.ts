import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { bucketInCidr, canonicalIp, cidrBucket, cidrContains, parseCidr, parseIp } from '../../../../daemon/store/events/ip-address.js';

describe('client IPs', () => {
  it('canonicalizes IPv4, IPv6 and IPv4-mapped IPv6', () => {
    expect(parseIp('203.0.113.7')).toMatchObject({ canonical: '203.0.113.7', v4: 0xcb007107 });
    expect(parseIp(' 2001:DB8:0:0::1 ')?.canonical).toBe('2001:db8::1');
    expect(parseIp('::ffff:10.0.0.1')?.canonical).toBe('10.0.0.1');
    for (const bad of ['', '1.2.3', '256.1.1.1', '01.2.3.4', '1.2.3.4.5', 'example.com', '2001:db8::g', '1.2.3.4/24']) {
      expect(parseIp(bad), bad).toBeNull();
      expect(canonicalIp(bad), bad).toBeNull();
    }
    for (const ip of ['203.0.113.7', ' 203.0.113.7 ', ' 2001:DB8:0:0::1 ', '::ffff:10.0.0.1', 'fe80::1%eth0']) expect(canonicalIp(ip), ip).toBe(parseIp(ip)?.canonical);
  });

  it('reads IPv6 exactly as ipaddr.js does, whatever the spelling (the plain forms skip ipaddr.js)', () => {
    /** What parseIp answered before it had its own IPv6 reader: ipaddr.js for everything with a colon. */
    const viaIpaddr = (text: string) => {
      const t = text.trim();
      if (!ipaddr.IPv6.isValid(t)) return null;
      const a = ipaddr.process(t);
      if (a.kind() === 'ipv4') return { canonical: a.toString(), v6: null };
      return { canonical: a.toString().toLowerCase(), v6: Array.from((a as ipaddr.IPv6).parts) };
    };
    const group = fc.oneof(fc.constant(0), fc.constant(0), fc.constant(0xffff), fc.integer({ min: 0, max: 0xffff }));
    const spelt = (g: number, pad: number, upper: boolean) => {
      const h = g.toString(16).padStart(Math.min(4, g.toString(16).length + pad), '0');
      return upper ? h.toUpperCase() : h;
    };
    const address = fc
      .record({
        groups: fc.array(group, { minLength: 8, maxLength: 8 }),
        pads: fc.array(fc.nat(3), { minLength: 8, maxLength: 8 }),
        upper: fc.boolean(),
        cut: fc.option(fc.tuple(fc.nat(7), fc.integer({ min: 1, max: 8 }))),
        mapped: fc.boolean(),
        junk: fc.constantFrom('', '', '', '%eth0', ':', '::', ':1', '.1', ' ', 'g', ':1.2.3.4', ':::'),
        front: fc.constantFrom('', '', '', ':', ' ', '::'),
      })
      .map(({ groups, pads, upper, cut, mapped, junk, front }) => {
        if (mapped) groups.splice(0, 6, 0, 0, 0, 0, 0, 0xffff);
        const parts = groups.map((g, k) => spelt(g, pads[k], upper));
        let text = parts.join(':');
        if (cut) {
          const [from, n] = cut;
          const to = Math.min(8, from + n);
          text = `${parts.slice(0, from).join(':')}::${parts.slice(to).join(':')}`;
        }
        return front + text + junk;
      });
    const noise = fc.stringMatching(/^[0-9a-fA-F:.%]{0,41}$/);
    fc.assert(
      fc.property(fc.oneof(address, address, noise), (text) => {
        const ours = parseIp(text);
        expect(canonicalIp(text), text).toBe(ours?.canonical ?? null);
        const expected = text.includes(':') ? viaIpaddr(text) : undefined;
        if (expected === undefined) return; // no colon: the IPv4 reader, unchanged
        if (expected === null) return void expect(ours, text).toBeNull();
        expect(ours?.canonical, text).toBe(expected.canonical);
        expect(ours?.v6 === null ? null : Array.from(ours!.v6), text).toEqual(expected.v6);
      }),
      { numRuns: 5000 },
    );
    expect(parseIp('2001:db8:0:0:1:0:0:1')?.canonical).toBe('2001:db8::1:0:0:1');
    expect(parseIp('1:0:0:2:0:0:0:3')?.canonical).toBe('1:0:0:2::3');
    expect(parseIp('::')?.canonical).toBe('::');
    expect(parseIp('::FFFF:a00:1')?.canonical).toBe('10.0.0.1');
  });

  it('tests CIDR containment for both families, never across them', () => {
    const v4 = parseCidr('10.1.0.0/16')!;
    expect(cidrContains(v4, parseIp('10.1.255.3')!)).toBe(true);
    expect(cidrContains(v4, parseIp('10.2.0.1')!)).toBe(false);
    expect(cidrContains(v4, parseIp('2001:db8::1')!)).toBe(false);
    const v6 = parseCidr('2001:db8:1::/48')!;
    expect(cidrContains(v6, parseIp('2001:db8:1:ffff::9')!)).toBe(true);
    expect(cidrContains(v6, parseIp('2001:db8:2::9')!)).toBe(false);
    expect(cidrContains(parseCidr('0.0.0.0/0')!, parseIp('8.8.8.8')!)).toBe(true);
    expect(cidrContains(parseCidr('2001:db8::1/128')!, parseIp('2001:db8::1')!)).toBe(true);
    expect(cidrContains(parseCidr('10.0.0.9/24')!, parseIp('10.0.0.200')!)).toBe(true); // host bits ignored
    for (const bad of ['10.0.0.0/33', '2001:db8::/129', '10.0.0.0/', '10.0.0/8', 'x/8']) expect(parseCidr(bad), bad).toBeNull();
  });

  it('names the one bucket of a long prefix, and tests buckets for short ones', () => {
    expect(cidrBucket(parseCidr('10.1.2.0/24')!)).toBe(parseIp('10.1.9.9')!.bucket);
    expect(cidrBucket(parseCidr('10.0.0.0/8')!)).toBeNull();
    expect(bucketInCidr(parseCidr('10.0.0.0/8')!, parseIp('10.200.1.1')!.bucket)).toBe(true);
    expect(bucketInCidr(parseCidr('10.0.0.0/8')!, parseIp('11.0.0.1')!.bucket)).toBe(false);
    expect(bucketInCidr(parseCidr('2001:db8::/16')!, parseIp('2001:ffff::1')!.bucket)).toBe(true);
    expect(bucketInCidr(parseCidr('2001:db8::/16')!, parseIp('10.0.0.1')!.bucket)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { bucketInCidr, cidrBucket, cidrContains, parseCidr, parseIp } from '../../../../daemon/store/events/ip-address.js';

describe('client IPs', () => {
  it('canonicalizes IPv4, IPv6 and IPv4-mapped IPv6', () => {
    expect(parseIp('203.0.113.7')).toMatchObject({ canonical: '203.0.113.7', v4: 0xcb007107 });
    expect(parseIp(' 2001:DB8:0:0::1 ')?.canonical).toBe('2001:db8::1');
    expect(parseIp('::ffff:10.0.0.1')?.canonical).toBe('10.0.0.1');
    for (const bad of ['', '1.2.3', '256.1.1.1', '01.2.3.4', '1.2.3.4.5', 'example.com', '2001:db8::g', '1.2.3.4/24']) expect(parseIp(bad), bad).toBeNull();
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

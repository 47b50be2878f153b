import { describe, expect, it } from 'vitest';
import { canonicalIpOrCidr, IpAddressSchema, IpOrCidrSchema } from '../../../shared/schemas/ip.js';

describe('canonicalIpOrCidr', () => {
  it.each([
    ['1.2.3.4', '1.2.3.4'],
    [' 1.2.3.4 ', '1.2.3.4'],
    ['::1', '::1'],
    ['2001:DB8:0:0::1', '2001:db8::1'],
    ['10.0.0.0/8', '10.0.0.0/8'],
    ['2001:db8::/48', '2001:db8::/48'],
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['0.0.0.0/0', '0.0.0.0/0'],
  ])('canonicalises %s as %s', (input, expected) => {
    expect(canonicalIpOrCidr(input)).toBe(expected);
  });

  it.each(['01.2.3.4', '1.2.3', '0x7f.0.0.1', '256.1.1.1', '1.2.3.4/33', '1.2.3.4/', '::1/129', 'example.com', '', '1.2.3.4/8/8', '10.1.2.3/8', '2001:db8::1/48'])(
    'refuses %j',
    (input) => {
      expect(canonicalIpOrCidr(input)).toBeNull();
      expect(IpOrCidrSchema.safeParse(input).success).toBe(false);
    },
  );

  it('accepts plain addresses only in IpAddressSchema', () => {
    expect(IpAddressSchema.safeParse('2001:db8::5').success).toBe(true);
    expect(IpAddressSchema.safeParse('10.0.0.0/8').success).toBe(false);
  });
});

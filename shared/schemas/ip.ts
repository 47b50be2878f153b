import ipaddr from 'ipaddr.js';
import { z } from 'zod';

// IP and CIDR syntax through ipaddr.js; values are stored in canonical form (DESIGN.md section 5):
// IPv4 dotted quad, IPv6 RFC 5952 compressed lower-case, CIDR with the network address.

export function canonicalIp(text: string): string | null {
  if (!ipaddr.isValid(text)) return null;
  let parsed = ipaddr.parse(text);
  // A client seen as ::ffff:a.b.c.d is the IPv4 client a.b.c.d: store it as such so lists match both.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.kind() === 'ipv6' ? parsed.toString() : parsed.toNormalizedString();
}

/** Canonical `addr` or `net/prefix` (host bits cleared), or null when the text is neither. */
export function canonicalIpOrCidr(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed.includes('/')) return isStrictAddress(trimmed) ? canonicalIp(trimmed) : null;
  try {
    const [address, prefix] = ipaddr.parseCIDR(trimmed);
    if (!isStrictAddress(trimmed.slice(0, trimmed.indexOf('/')))) return null;
    const network = address.kind() === 'ipv6'
      ? ipaddr.IPv6.networkAddressFromCIDR(trimmed)
      : ipaddr.IPv4.networkAddressFromCIDR(trimmed);
    const shown = network.kind() === 'ipv6' ? network.toString() : network.toNormalizedString();
    return `${shown}/${prefix}`;
  } catch {
    return null;
  }
}

// ipaddr.isValid accepts legacy IPv4 forms (octal, hex, 3-part); a firewall list must not.
function isStrictAddress(text: string): boolean {
  if (text.includes(':')) return ipaddr.IPv6.isValid(text);
  return ipaddr.IPv4.isValidFourPartDecimal(text);
}

export const IpAddressSchema = z.string().max(64).refine((v) => isStrictAddress(v.trim()), {
  message: 'must be an IPv4 or IPv6 address',
});

export const IpOrCidrSchema = z.string().max(64).refine((v) => canonicalIpOrCidr(v) !== null, {
  message: 'must be an IPv4 or IPv6 address or CIDR range',
});

// Client IPs as the index sees them: a canonical text (lower-case, RFC 5952 for IPv6,
// IPv4-mapped IPv6 folded to IPv4) for exact match, numbers for CIDR containment, and a
// bucket (/16 for IPv4, /32 for IPv6) so a CIDR query looks at a few addresses, not all.
import ipaddr from 'ipaddr.js';
import { plainIpv6, rfc5952 } from '../../../shared/ipv6-text.js';

export interface ParsedIp {
  canonical: string;
  /** IPv4 as an unsigned 32-bit number; -1 for IPv6. */
  v4: number;
  /** IPv6 as eight 16-bit groups; null for IPv4. */
  v6: Uint16Array | null;
  bucket: string;
}

export interface Cidr {
  v4: boolean;
  /** Network bits. */
  prefix: number;
  /** IPv4: network number; IPv6: unused. */
  net: number;
  /** IPv6 groups of the network; IPv4: null. */
  groups: Uint16Array | null;
}

const v4Bucket = (n: number): string => `4:${n >>> 16}`;
const v6Bucket = (g: Uint16Array): string => `6:${g[0]}:${g[1]}`;

function fromIpaddr(addr: ipaddr.IPv4 | ipaddr.IPv6): ParsedIp {
  if (addr.kind() === 'ipv4') {
    const o = (addr as ipaddr.IPv4).octets;
    const n = ((o[0] << 24) | (o[1] << 16) | (o[2] << 8) | o[3]) >>> 0;
    return { canonical: addr.toString(), v4: n, v6: null, bucket: v4Bucket(n) };
  }
  const g = Uint16Array.from((addr as ipaddr.IPv6).parts);
  return { canonical: addr.toString().toLowerCase(), v4: -1, v6: g, bucket: v6Bucket(g) };
}

/**
 * The common case without ipaddr.js: canonical dotted quad (no leading zeros, each part
 * 0-255) as a number; -1 for anything else (which then goes through ipaddr.js).
 */
function dottedQuad(t: string): number {
  let n = 0;
  let part = -1;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || dots === 3) return -1;
      n = n * 256 + part;
      dots++;
      part = -1;
      digits = 0;
    } else if (c >= 48 && c <= 57) {
      if (digits > 0 && part === 0) return -1;
      part = part < 0 ? c - 48 : part * 10 + (c - 48);
      if (++digits > 3 || part > 255) return -1;
    } else return -1;
  }
  if (dots !== 3 || digits === 0) return -1;
  return n * 256 + part;
}

/** Parses a client IP; null if it is not an IPv4 (dotted quad) or IPv6 address. */
export function parseIp(text: string): ParsedIp | null {
  const t = text.trim();
  const n = dottedQuad(t);
  if (n >= 0) return { canonical: t, v4: n, v6: null, bucket: v4Bucket(n) };
  // dottedQuad takes every valid dotted quad; what is left can only be IPv6.
  const g = plainIpv6(t);
  if (g !== null) return { canonical: rfc5952(g), v4: -1, v6: g, bucket: v6Bucket(g) };
  if (t.includes(':') && ipaddr.IPv6.isValid(t)) return fromIpaddr(ipaddr.process(t));
  return null;
}

/**
 * parseIp(text)?.canonical without building the parsed form: the string table keys every new
 * client IP by it, and on traffic from many distinct addresses the object and bucket text
 * parseIp builds are garbage made once per address.
 */
export function canonicalIp(text: string): string | null {
  const t = text.trim();
  if (dottedQuad(t) >= 0) return t;
  const g = plainIpv6(t);
  if (g !== null) return rfc5952(g);
  return parseIp(t)?.canonical ?? null;
}

/** Parses `a.b.c.d/n` or `v6/n`; null if it is not a CIDR block. */
export function parseCidr(text: string): Cidr | null {
  const t = text.trim();
  const slash = t.indexOf('/');
  if (slash < 0) return null;
  const lenText = t.slice(slash + 1);
  if (!/^\d{1,3}$/.test(lenText)) return null;
  const prefix = Number(lenText);
  const ip = parseIp(t.slice(0, slash));
  if (!ip) return null;
  if (ip.v6 === null) {
    if (prefix > 32) return null;
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    return { v4: true, prefix, net: (ip.v4 & mask) >>> 0, groups: null };
  }
  if (prefix > 128) return null;
  return { v4: false, prefix, net: 0, groups: ip.v6 };
}

export function cidrContains(c: Cidr, ip: ParsedIp): boolean {
  if (c.v4) {
    if (ip.v6 !== null) return false;
    const mask = c.prefix === 0 ? 0 : (0xffffffff << (32 - c.prefix)) >>> 0;
    return ((ip.v4 & mask) >>> 0) === c.net;
  }
  if (ip.v6 === null || c.groups === null) return false;
  let bits = c.prefix;
  for (let i = 0; i < 8 && bits > 0; i++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if ((ip.v6[i] & mask) !== (c.groups[i] & mask)) return false;
  }
  return true;
}

/**
 * The buckets a CIDR block can touch: one when the prefix is at least the bucket size,
 * otherwise null (the caller then tests every bucket of the right family with `bucketInCidr`).
 */
export function cidrBucket(c: Cidr): string | null {
  if (c.v4) return c.prefix >= 16 ? v4Bucket(c.net) : null;
  return c.prefix >= 32 && c.groups ? v6Bucket(c.groups) : null;
}

/** For short prefixes: whether a bucket key lies inside the block. */
export function bucketInCidr(c: Cidr, bucket: string): boolean {
  if (c.v4) {
    if (!bucket.startsWith('4:')) return false;
    const top16 = Number(bucket.slice(2));
    return cidrContains(c, { canonical: '', v4: (top16 << 16) >>> 0, v6: null, bucket });
  }
  if (!bucket.startsWith('6:') || !c.groups) return false;
  const [a, b] = bucket.slice(2).split(':').map(Number);
  const g = new Uint16Array(8);
  g[0] = a;
  g[1] = b;
  return cidrContains({ ...c, prefix: Math.min(c.prefix, 32) }, { canonical: '', v4: -1, v6: g, bucket });
}

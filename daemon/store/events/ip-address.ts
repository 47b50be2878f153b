// Client IPs as the index sees them: a canonical text (lower-case, RFC 5952 for IPv6,
// IPv4-mapped IPv6 folded to IPv4) for exact match, numbers for CIDR containment, and a
// bucket (/16 for IPv4, /32 for IPv6) so a CIDR query looks at a few addresses, not all.
import ipaddr from 'ipaddr.js';

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

/** 0-15 for a hex digit (either case), -1 otherwise. */
function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const lower = c | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/**
 * The common IPv6 spelling without ipaddr.js: hex groups of 1-4 digits, at most one `::`, no
 * embedded IPv4, no zone id, not IPv4-mapped; null for anything else, which then goes through
 * ipaddr.js (so every other form keeps its exact handling). ipaddr.js validates, parses again
 * and builds the RFC 5952 text with regexes: ~5.5 µs an address against well under 1 here,
 * paid by every ingested event whose client is on IPv6 (bench/ingest/README.md).
 * ip-address.test.ts holds the two to the same answers with fast-check.
 */
function plainIpv6(t: string): Uint16Array | null {
  const len = t.length;
  if (len < 2 || len > 39) return null;
  const groups: number[] = [];
  let gap = -1; // groups before the `::`
  let i = 0;
  if (t.charCodeAt(0) === 58) {
    if (t.charCodeAt(1) !== 58) return null;
    gap = 0;
    i = 2;
  }
  while (i < len) {
    let v = 0;
    let digits = 0;
    for (let h: number; i < len && (h = hexDigit(t.charCodeAt(i))) >= 0; i++) {
      if (++digits > 4) return null;
      v = v * 16 + h;
    }
    if (digits === 0) return null;
    groups.push(v);
    if (i === len) break;
    if (t.charCodeAt(i) !== 58 || ++i === len) return null; // `.`, `%`, ... or a trailing single `:`
    if (t.charCodeAt(i) === 58) {
      if (gap >= 0) return null;
      gap = groups.length;
      i++;
    }
  }
  if (gap < 0 ? groups.length !== 8 : groups.length > 7) return null;
  const g = new Uint16Array(8);
  if (gap < 0) g.set(groups);
  else {
    for (let k = 0; k < gap; k++) g[k] = groups[k];
    const tail = groups.length - gap;
    for (let k = 0; k < tail; k++) g[8 - tail + k] = groups[gap + k];
  }
  // ::ffff:a.b.c.d in hex: ipaddr.js's process() folds it to IPv4, so it takes that path.
  if (g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0xffff) return null;
  return g;
}

/** RFC 5952 text: lower-case groups without leading zeros, the longest run (leftmost on a tie) of two or more zero groups as `::`. */
function rfc5952(g: Uint16Array): string {
  let at = -1;
  let run = 1;
  for (let k = 0; k < 8; ) {
    if (g[k] !== 0) {
      k++;
      continue;
    }
    let end = k;
    while (end < 8 && g[end] === 0) end++;
    if (end - k > run) {
      at = k;
      run = end - k;
    }
    k = end;
  }
  const hex = (from: number, to: number): string => {
    let out = '';
    for (let k = from; k < to; k++) out += (k > from ? ':' : '') + g[k].toString(16);
    return out;
  };
  return at < 0 ? hex(0, 8) : `${hex(0, at)}::${hex(at + run, 8)}`;
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

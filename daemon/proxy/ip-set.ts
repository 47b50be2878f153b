import { parseIpRange } from '../../shared/schemas/ip.js';

// An IP list compiled to sorted, merged address ranges searched by bisection: a lookup is
// O(log n) comparisons, whatever the number of entries or CIDR sizes. IPv4 addresses are
// numbers; IPv6 addresses are 32-digit lower-case hex strings, whose string order is their
// numeric order (cheaper to parse and compare than bigints). IPv4-mapped IPv6 clients
// (::ffff:a.b.c.d) are looked up as the IPv4 address, so one entry covers both ways a client
// can appear.

/** A client address parsed once per request, then tested against any number of sets. */
export type IpKey = { readonly v: 4; readonly n: number; readonly text: string } | { readonly v: 6; readonly n: string; readonly text: string };

export interface IpSet {
  readonly size: number;
  has(ip: IpKey): boolean;
}

export class IpEntryError extends Error {
  override name = 'IpEntryError';
}

const IPV4_DOTTED = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** Parses a client address (socket or X-Forwarded-For); null if it is not an address. */
export function parseIp(text: string): IpKey | null {
  const m = IPV4_DOTTED.exec(text);
  if (m) {
    const a = +m[1], b = +m[2], c = +m[3], d = +m[4];
    if (a > 255 || b > 255 || c > 255 || d > 255) return null;
    return { v: 4, n: ((a << 24) >>> 0) + (b << 16) + (c << 8) + d, text };
  }
  if (!text.includes(':')) return null;
  const zone = text.indexOf('%');
  const hextets = parseV6(zone === -1 ? text : text.slice(0, zone));
  if (!hextets) return null;
  if (hextets[0] === 0 && hextets[1] === 0 && hextets[2] === 0 && hextets[3] === 0 && hextets[4] === 0 && hextets[5] === 0xffff) {
    const n = hextets[6] * 65536 + hextets[7];
    return { v: 4, n, text: `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}` };
  }
  let hex = '';
  for (const h of hextets) hex += h.toString(16).padStart(4, '0');
  return { v: 6, n: hex, text: canonicalV6(hextets) };
}

/** RFC 5952: lower case, no leading zeros, the longest run (2+) of zero groups as "::". */
function canonicalV6(h: number[]): string {
  let bestAt = -1, bestLen = 1;
  for (let i = 0; i < 8; i++) {
    if (h[i] !== 0) continue;
    let j = i;
    while (j < 8 && h[j] === 0) j++;
    if (j - i > bestLen) { bestAt = i; bestLen = j - i; }
    i = j;
  }
  const hexes = h.map((x) => x.toString(16));
  if (bestAt === -1) return hexes.join(':');
  return `${hexes.slice(0, bestAt).join(':')}::${hexes.slice(bestAt + bestLen).join(':')}`;
}

const HEXTET = /^[0-9a-fA-F]{1,4}$/;

/** RFC 4291 text form (with "::" and a trailing dotted IPv4) to 8 numbers; null if invalid. */
function parseV6(text: string): number[] | null {
  const gap = text.indexOf('::');
  if (gap !== -1 && text.indexOf('::', gap + 1) !== -1) return null;
  const head = gap === -1 ? text : text.slice(0, gap);
  const tail = gap === -1 ? '' : text.slice(gap + 2);
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = gap === -1 ? left : [...left, ...right];
  const out: number[] = [];
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i];
    if (i === groups.length - 1 && g.includes('.')) {
      const m = IPV4_DOTTED.exec(g);
      if (!m || +m[1] > 255 || +m[2] > 255 || +m[3] > 255 || +m[4] > 255) return null;
      out.push(+m[1] * 256 + +m[2], +m[3] * 256 + +m[4]);
    } else if (HEXTET.test(g)) out.push(parseInt(g, 16));
    else return null;
  }
  if (gap === -1) return out.length === 8 ? out : null;
  if (out.length > 7) return null;
  const split = left.length;
  return [...out.slice(0, split), ...new Array(8 - out.length).fill(0), ...out.slice(split)];
}

/**
 * Compiles rule entries ("1.2.3.4", "10.0.0.0/8", "2001:db8::/32", "::ffff:10.0.0.0/104") through
 * the API's own parser (shared/schemas/ip.ts), so the edge compiles exactly what the API accepts;
 * throws IpEntryError, naming the entry and why, on anything else (the snapshot compiler then
 * isolates that site: snapshot.ts).
 */
export function compileIpSet(entries: readonly string[]): IpSet {
  const v4: Array<[number, number]> = [];
  const v6: Array<[bigint, bigint]> = [];
  for (const raw of entries) {
    const parsed = parseIpRange(raw);
    if (!parsed.ok) throw new IpEntryError(`${JSON.stringify(raw.slice(0, 80))} ${parsed.reason}`);
    const range = parsed.range;
    if (range.v === 4) {
      v4.push([range.start, range.start + 2 ** (32 - range.bits) - 1]);
    } else {
      v6.push([range.start, range.start + (1n << BigInt(128 - range.bits)) - 1n]);
    }
  }
  const r4 = merge(v4, 1);
  const r6 = merge(v6, 1n);
  const starts4 = Float64Array.from(r4, (r) => r[0]);
  const ends4 = Float64Array.from(r4, (r) => r[1]);
  const hex = (n: bigint) => n.toString(16).padStart(32, '0');
  const starts6 = r6.map((r) => hex(r[0]));
  const ends6 = r6.map((r) => hex(r[1]));
  return {
    size: entries.length,
    has(ip: IpKey): boolean {
      if (ip.v === 4) return r4.length > 0 && inRanges(starts4, ends4, ip.n);
      return r6.length > 0 && inRanges(starts6, ends6, ip.n);
    },
  };
}

function merge<T extends number | bigint>(ranges: Array<[T, T]>, one: T): Array<[T, T]> {
  ranges.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const out: Array<[T, T]> = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    // Adjacent or overlapping ranges become one, so bisection finds at most one candidate.
    if (last && r[0] <= (last[1] as number) + (one as number)) {
      if (r[1] > last[1]) last[1] = r[1];
    } else out.push([r[0], r[1]]);
  }
  return out;
}

function inRanges<T extends number | string>(starts: ArrayLike<T>, ends: ArrayLike<T>, n: T): boolean {
  // Last range whose start <= n, then check its end.
  let lo = 0, hi = starts.length - 1, found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid] <= n) { found = mid; lo = mid + 1; } else hi = mid - 1;
  }
  return found !== -1 && n <= ends[found];
}

export const EMPTY_IP_SET: IpSet = compileIpSet([]);

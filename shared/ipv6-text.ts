// The plain IPv6 spelling read and written without ipaddr.js, for the ingest hot path: the entry
// check (daemon/ingest/entry-check.ts) and the event index's key (daemon/store/events/ip-address.ts).
// Only the common form is read here; every other form (embedded IPv4, zone ids, mapped addresses)
// is left to ipaddr.js by returning null, so its exact handling is unchanged.

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
 * paid twice by every ingested event whose client is on IPv6: the entry check and the event
 * index's key (bench/ingest/README.md). test/daemon/store/events/ip-address.test.ts holds this to
 * ipaddr.js's answers with fast-check.
 */
export function plainIpv6(t: string): Uint16Array | null {
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
export function rfc5952(g: Uint16Array): string {
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

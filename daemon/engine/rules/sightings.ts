// Which values were seen recently, to admit a value to the miss memo (miss-memo.ts) only when it
// comes back. A stream of values that never repeat (a crawler's or a scanner's unique query
// strings, posted content) would otherwise fill the memo with values met once, pay a copy and a
// Map insert for each, and push out the browser values that do come back. A Bloom filter of the
// values' hashes (two bits each), no strings kept: fixed size, nothing allocated per value. It is
// cleared after `capacity` values were noted (under a quarter of its bits set, so a new value is
// taken for a seen one ~5% of the time at worst). A table of one hash per slot was tried first:
// two values of one request that share a slot push each other out on every request and are
// never admitted (the bench's form POST, replayed, cost 1.56x).
//
// Only speed depends on it, never a verdict: a value not admitted gets per-transaction bits, as
// without the memo. A false "seen" admits a value one sighting early; a clear admits values
// noted before it one sighting late.

/** Values up to this length are hashed whole; longer ones by their length, first and last 32
 *  characters and 32 spread between (~100 steps, not n: a 1 MB body value costs no more). */
const FULL_HASH_LENGTH = 96;

/** FNV-1a over the value's (sampled) UTF-16 code units. */
export function sightingHash(value: string): number {
  const n = value.length;
  let h = 0x811c9dc5 ^ n;
  if (n <= FULL_HASH_LENGTH) {
    for (let i = 0; i < n; i++) h = Math.imul(h ^ value.charCodeAt(i), 0x01000193);
    return h >>> 0;
  }
  for (let i = 0; i < 32; i++) h = Math.imul(h ^ value.charCodeAt(i), 0x01000193);
  const step = n >> 5;
  for (let i = 32 + (step >> 1); i < n - 32; i += step) h = Math.imul(h ^ value.charCodeAt(i), 0x01000193);
  for (let i = n - 32; i < n; i++) h = Math.imul(h ^ value.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class Sightings {
  private readonly bits: Uint32Array;
  private readonly mask: number;
  private noted = 0;

  /** `capacity`: values noted before the filter is cleared (8 bits each, rounded up to a power of two). */
  constructor(private readonly capacity: number) {
    let words = 1;
    while (words * 32 < capacity * 8) words <<= 1;
    this.bits = new Uint32Array(words);
    this.mask = words * 32 - 1;
  }

  /** True when the value was noted before (since the last clear, or a false positive); notes it otherwise. */
  seenBefore(value: string): boolean {
    const h = sightingHash(value);
    const a = h & this.mask;
    const b = ((h >>> 16) | (h << 16)) & this.mask;
    const bits = this.bits;
    if ((bits[a >>> 5] & (1 << (a & 31))) !== 0 && (bits[b >>> 5] & (1 << (b & 31))) !== 0) return true;
    if (++this.noted > this.capacity) {
      bits.fill(0);
      this.noted = 1;
    }
    bits[a >>> 5] |= 1 << (a & 31);
    bits[b >>> 5] |= 1 << (b & 31);
    return false;
  }
}

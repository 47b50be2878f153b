// Scan results per distinct value, for one transaction: value -> offset of its clause bitset in
// one growing Int32Array, so nothing is allocated per value. -1 marks a value that is not a byte
// string (every clause may hold).
import type { AtomScanner } from './atom-scanner.js';

/** Characters scanned before the cache starts over (bounds memory if one scope lives long). */
const CHAR_LIMIT = 1 << 22;
const SLOTS = 1024;

export class ScanCache {
  private readonly offsetByValue = new Map<string, number>();
  private used = 0;
  private chars = 0;
  bits: Int32Array;

  constructor(readonly scanner: AtomScanner) {
    this.bits = new Int32Array(scanner.words * 64);
  }

  /** A direct-mapped front of the Map, hashed on length and two bytes: no string hashing. */
  private readonly slotValue: Array<string | undefined> = new Array(SLOTS).fill(undefined);
  private readonly slotOffset = new Int32Array(SLOTS);

  /** Where `input`'s clause bitset starts in `bits`, or -1. */
  offsetOf(input: string): number {
    const n = input.length;
    const slot = n === 0 ? 0 : (n * 31 + input.charCodeAt(n >> 1) * 7 + input.charCodeAt(n - 1)) & (SLOTS - 1);
    if (this.slotValue[slot] === input) return this.slotOffset[slot];
    let at = this.offsetByValue.get(input);
    if (at === undefined) at = this.add(input);
    this.slotValue[slot] = input;
    this.slotOffset[slot] = at;
    return at;
  }

  private add(input: string): number {
    if (this.chars > CHAR_LIMIT) this.reset();
    const words = this.scanner.words;
    if (this.used + words > this.bits.length) {
      const grown = new Int32Array(this.bits.length * 2);
      grown.set(this.bits);
      this.bits = grown;
    }
    let at = -1;
    if (this.scanner.scanInto(input, this.bits, this.used)) {
      at = this.used;
      this.used += words;
    } else this.bits.fill(0, this.used, this.used + words);
    this.offsetByValue.set(input, at);
    this.chars += input.length;
    return at;
  }

  private reset(): void {
    this.offsetByValue.clear();
    this.slotValue.fill(undefined);
    this.bits.fill(0, 0, this.used);
    this.used = 0;
    this.chars = 0;
  }
}

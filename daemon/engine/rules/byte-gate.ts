// A gate in front of @rx: most (regex, value) pairs of a request cannot match because the value
// lacks every byte the regex needs (rules/required-bytes.ts): a price "59.9" for an SQL
// injection pattern that needs a quote or a parenthesis. V8 rejects such a pair quickly, but
// not as quickly as one AND: at paranoia 4 an 8 KB JSON body meets ~18,000 of them.
//
// Bytes are grouped into 62 classes (each ASCII punctuation byte alone, each letter with its
// other case, digits, space, control bytes, bytes >= 0x80), two 31-bit masks. A value's masks
// (`VarEntry.gateLo/gateHi`) say which classes occur in it, computed once per distinct value;
// a rule's masks say which classes hold a byte its regex needs. No common bit: no match.
// Sound because a class is in a value's mask whenever one of its bytes is in the value; a value
// with a char above 0xff (not a byte string) gets every bit.
import type { VarEntry } from '../collections/keyed-list.js';
import type { ByteSet } from './required-bytes.js';

/** Class index (0..61) of each byte. */
const CLASS_OF = new Uint8Array(256);
const ALL = 0x7fffffff;

(function assignClasses() {
  let next = 0;
  const digits = next++;
  const space = next++;
  const control = next++;
  const high = next++;
  for (let b = 0; b < 256; b++) {
    if (b >= 0x30 && b <= 0x39) CLASS_OF[b] = digits;
    else if (b === 0x20) CLASS_OF[b] = space;
    else if (b < 0x20 || b === 0x7f) CLASS_OF[b] = control;
    else if (b >= 0x80) CLASS_OF[b] = high;
  }
  for (let b = 0x61; b <= 0x7a; b++) {
    const c = next++;
    CLASS_OF[b] = c;
    CLASS_OF[b - 0x20] = c;
  }
  for (let b = 0x21; b < 0x7f; b++) {
    const letter = (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
    if (!letter && !(b >= 0x30 && b <= 0x39)) CLASS_OF[b] = next++;
  }
  if (next > 62) throw new Error(`byte-gate: ${next} classes do not fit two 31-bit masks`);
})();

/** Rule masks: a rule gates when either is non-zero. */
export interface GateMasks {
  lo: number;
  hi: number;
}

/** The classes of `bytes` (what a regex needs: one of them). */
export function gateMasksOf(bytes: ByteSet): GateMasks {
  let lo = 0;
  let hi = 0;
  for (const b of bytes) {
    const c = CLASS_OF[b];
    if (c < 31) lo |= 1 << c;
    else hi |= 1 << (c - 31);
  }
  return { lo, hi };
}

/** Fills `cell.gateLo/gateHi` with the classes of the bytes in its value, once per value. */
export function computeValueMasks(cell: VarEntry): void {
  if (cell.gateLo >= 0) return;
  const value = cell.value;
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code > 0xff) {
      lo = ALL;
      hi = ALL;
      break;
    }
    const c = CLASS_OF[code];
    if (c < 31) lo |= 1 << c;
    else hi |= 1 << (c - 31);
  }
  cell.gateHi = hi;
  cell.gateLo = lo;
}

/** False when `cell.value` holds no byte of the classes in (lo, hi): the rule's regex cannot
 *  match it. Only for the untransformed value (the caller checks that the value is `cell.value`). */
export function mayMatch(cell: VarEntry, lo: number, hi: number): boolean {
  computeValueMasks(cell);
  return (cell.gateLo & lo) !== 0 || (cell.gateHi & hi) !== 0;
}

// The engine reads and reports bytes, one char per byte (latin1: engine/CONTRACT.md). A stored
// event is text: matched data `Seán` arrives as the two bytes C3 A1 and must be stored as `á`,
// not as `Ã¡`. A byte that is not part of a UTF-8 sequence is usually a code point the engine's
// own decoding made (CRS's t:utf8toUnicode,t:urlDecodeUni turns `á` into `%u00e1`, then into the
// one byte E1), so A0-FF read as U+00A0-U+00FF; 80-9F (C1 controls, never text) stay visible as
// \xNN rather than replaced by U+FFFD (a literal `\x` in the data reads the same: the event is for
// reading, not for replay).

const ALL_ASCII = /^[\x00-\x7f]*$/;
const NOT_A_BYTE_STRING = /[^\x00-\xff]/;

export function byteText(value: string): string {
  // Already text (a caller that had decoded it), or nothing to decode: as it is.
  if (ALL_ASCII.test(value) || NOT_A_BYTE_STRING.test(value)) return value;
  const bytes = Buffer.from(value, 'latin1');
  const whole = bytes.toString('utf8');
  if (!whole.includes('\ufffd')) return whole;
  let out = '';
  for (let i = 0; i < bytes.length; ) {
    const n = sequenceLength(bytes, i);
    if (n > 0) out += bytes.toString('utf8', i, i + n);
    else out += bytes[i] >= 0xa0 ? String.fromCharCode(bytes[i]) : `\\x${bytes[i].toString(16)}`;
    i += n === 0 ? 1 : n;
  }
  return out;
}

/** Length of the well-formed UTF-8 sequence at `i` (RFC 3629: no overlongs, no surrogates), or 0. */
function sequenceLength(b: Buffer, i: number): number {
  const c = b[i];
  if (c < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => i + k < b.length && b[i + k] >= lo && b[i + k] <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const lo = c === 0xe0 ? 0xa0 : 0x80;
    const hi = c === 0xed ? 0x9f : 0xbf;
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const lo = c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xf4 ? 0x8f : 0xbf;
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

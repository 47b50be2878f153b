// t:escapeSeqDecode: ModSecurity's ansi_c_sequences_decode_inplace(): ANSI C escapes \a \b \f \n \r
// \t \v \\ \? \' \" \xHH \OOO (octal, truncated to a byte); any other "\c" becomes "c".
import type { Transformation, TransformationDefinition } from './types.js';
import { isXDigit, x2c } from './c-ctype.js';
import { fromCodes, scratch } from './byte-string.js';

const SIMPLE: Record<number, number> = {
  0x61: 0x07, 0x62: 0x08, 0x66: 0x0c, 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09, 0x76: 0x0b,
  0x5c: 0x5c, 0x3f: 0x3f, 0x27: 0x27, 0x22: 0x22,
};
const isOctal = (c: number) => c >= 0x30 && c <= 0x37;

export const escapeSeqDecode: Transformation = (input) => {
  if (input.indexOf('\\') < 0) return input;
  const n = input.length;
  const out = scratch(n);
  let i = 0, d = 0;
  while (i < n) {
    if (input.charCodeAt(i) !== 0x5c || i + 1 >= n) { out[d++] = input.charCodeAt(i++); continue; }
    const next = input.charCodeAt(i + 1);
    const simple = SIMPLE[next];
    if (simple !== undefined) {
      out[d++] = simple;
      i += 2;
    } else if ((next === 0x78 || next === 0x58) && i + 3 < n && isXDigit(input.charCodeAt(i + 2)) && isXDigit(input.charCodeAt(i + 3))) {
      out[d++] = x2c(input.charCodeAt(i + 2), input.charCodeAt(i + 3));
      i += 4;
    } else if (isOctal(next)) {
      let j = 0;
      while (i + 1 + j < n && j < 3) {
        j++;
        if (!isOctal(input.charCodeAt(i + 1 + j))) break;
      }
      out[d++] = parseInt(input.slice(i + 1, i + 1 + j), 8) & 0xff;
      i += 1 + j;
    } else {
      out[d++] = next; // unrecognised: the backslash goes, the character stays
      i += 2;
    }
  }
  return fromCodes(out, d);
};

export const escapeSeqDecodeTransformation: TransformationDefinition = { apply: escapeSeqDecode, triggerBytes: '\\' };

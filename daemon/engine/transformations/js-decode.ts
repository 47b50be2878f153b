// t:jsDecode: ModSecurity's js_decode_nonstrict_inplace(): \uHHHH (low byte, full-width ASCII
// folded), \xHH, \OOO (at most one byte), \a \b \f \n \r \t \v, and "\c" -> "c" for anything else.
import type { Transformation, TransformationDefinition } from './types.js';
import { isXDigit, x2c } from './c-ctype.js';
import { fromCodes, scratch } from './byte-string.js';

const SIMPLE: Record<number, number> = { 0x61: 0x07, 0x62: 0x08, 0x66: 0x0c, 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09, 0x76: 0x0b };
const isOctal = (c: number) => c >= 0x30 && c <= 0x37;

export const jsDecode: Transformation = (input) => {
  if (input.indexOf('\\') < 0) return input;
  const n = input.length;
  const out = scratch(n);
  let i = 0, d = 0;
  while (i < n) {
    if (input.charCodeAt(i) !== 0x5c) { out[d++] = input.charCodeAt(i++); continue; }
    if (i + 5 < n && input.charCodeAt(i + 1) === 0x75 && isXDigit(input.charCodeAt(i + 2)) && isXDigit(input.charCodeAt(i + 3)) && isXDigit(input.charCodeAt(i + 4)) && isXDigit(input.charCodeAt(i + 5))) {
      let b = x2c(input.charCodeAt(i + 4), input.charCodeAt(i + 5));
      if (b > 0x00 && b < 0x5f && (input.charCodeAt(i + 2) | 0x20) === 0x66 && (input.charCodeAt(i + 3) | 0x20) === 0x66) b += 0x20;
      out[d++] = b;
      i += 6;
    } else if (i + 3 < n && input.charCodeAt(i + 1) === 0x78 && isXDigit(input.charCodeAt(i + 2)) && isXDigit(input.charCodeAt(i + 3))) {
      out[d++] = x2c(input.charCodeAt(i + 2), input.charCodeAt(i + 3));
      i += 4;
    } else if (i + 1 < n && isOctal(input.charCodeAt(i + 1))) {
      let j = 0;
      while (i + 1 + j < n && j < 3) {
        j++;
        if (!isOctal(input.charCodeAt(i + 1 + j))) break;
      }
      if (j === 3 && input.charCodeAt(i + 1) > 0x33) j = 2; // do not use three digits if that would overflow a byte
      out[d++] = parseInt(input.slice(i + 1, i + 1 + j), 8) & 0xff;
      i += 1 + j;
    } else if (i + 1 < n) {
      const c = input.charCodeAt(i + 1);
      out[d++] = SIMPLE[c] ?? c;
      i += 2;
    } else {
      out[d++] = input.charCodeAt(i++);
    }
  }
  return fromCodes(out, d);
};

export const jsDecodeTransformation: TransformationDefinition = { apply: jsDecode, triggerBytes: '\\' };

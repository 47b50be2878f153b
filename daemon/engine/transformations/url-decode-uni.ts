// t:urlDecodeUni: urlDecode plus IIS's %uXXXX. Without a SecUnicodeMapFile, ModSecurity keeps only
// the low byte of the code point, adding 0x20 for full-width ASCII (U+FF01..U+FF5E). An invalid or
// truncated %u keeps both '%' and 'u'.
import type { Transformation, TransformationDefinition } from './types.js';
import { isXDigit, x2c } from './c-ctype.js';
import { fromCodes, scratch } from './byte-string.js';

export const urlDecodeUni: Transformation = (input) => {
  if (input.indexOf('%') < 0 && input.indexOf('+') < 0) return input;
  const n = input.length;
  const out = scratch(n);
  let i = 0, d = 0;
  while (i < n) {
    const c = input.charCodeAt(i);
    if (c !== 0x25) {
      out[d++] = c === 0x2b ? 0x20 : c;
      i++;
      continue;
    }
    const u = input.charCodeAt(i + 1);
    if (i + 1 < n && (u === 0x75 || u === 0x55)) {
      if (i + 5 < n && isXDigit(input.charCodeAt(i + 2)) && isXDigit(input.charCodeAt(i + 3))
        && isXDigit(input.charCodeAt(i + 4)) && isXDigit(input.charCodeAt(i + 5))) {
        let b = x2c(input.charCodeAt(i + 4), input.charCodeAt(i + 5));
        if (b > 0x00 && b < 0x5f && (input.charCodeAt(i + 2) | 0x20) === 0x66 && (input.charCodeAt(i + 3) | 0x20) === 0x66) b += 0x20;
        out[d++] = b;
        i += 6;
      } else {
        out[d++] = c;
        out[d++] = u;
        i += 2;
      }
      continue;
    }
    if (i + 2 < n && isXDigit(u) && isXDigit(input.charCodeAt(i + 2))) {
      out[d++] = x2c(u, input.charCodeAt(i + 2));
      i += 3;
      continue;
    }
    out[d++] = c;
    i++;
  }
  return fromCodes(out, d);
};

export const urlDecodeUniTransformation: TransformationDefinition = { apply: urlDecodeUni, triggerBytes: '%+' };

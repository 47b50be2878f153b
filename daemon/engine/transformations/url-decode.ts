// t:urlDecode: ModSecurity's urldecode_nonstrict_inplace_ex(): '+' -> space, valid %xx -> byte, and an
// invalid or truncated '%' is kept as it is.
import type { Transformation, TransformationDefinition } from './types.js';
import { isXDigit, x2c } from './c-ctype.js';
import { fromCodes, scratch } from './byte-string.js';

export const urlDecode: Transformation = (input) => {
  if (input.indexOf('%') < 0 && input.indexOf('+') < 0) return input;
  const n = input.length;
  const out = scratch(n);
  let i = 0, d = 0;
  while (i < n) {
    const c = input.charCodeAt(i);
    if (c === 0x25 && i + 2 < n) {
      const c1 = input.charCodeAt(i + 1), c2 = input.charCodeAt(i + 2);
      if (isXDigit(c1) && isXDigit(c2)) {
        out[d++] = x2c(c1, c2);
        i += 3;
        continue;
      }
    }
    out[d++] = c === 0x2b ? 0x20 : c;
    i++;
  }
  return fromCodes(out, d);
};

export const urlDecodeTransformation: TransformationDefinition = { apply: urlDecode, triggerBytes: '%+' };

// t:cssDecode: ModSecurity's css_decode_inplace(): \ + 1-6 hex digits keeps the last byte (with the
// full-width ASCII fold for FFxx), one whitespace after a hex escape is eaten, "\<newline>" vanishes,
// "\c" -> "c", and a trailing backslash is dropped.
import type { Transformation, TransformationDefinition } from './types.js';
import { hexNibble, isSpace, isXDigit, x2c } from './c-ctype.js';
import { fromCodes, scratch } from './byte-string.js';

export const cssDecode: Transformation = (input) => {
  if (input.indexOf('\\') < 0) return input;
  const n = input.length;
  const out = scratch(n);
  let i = 0, d = 0;
  while (i < n) {
    if (input.charCodeAt(i) !== 0x5c) { out[d++] = input.charCodeAt(i++); continue; }
    if (i + 1 >= n) { i++; continue; }
    i++;
    let j = 0;
    while (j < 6 && i + j < n && isXDigit(input.charCodeAt(i + j))) j++;
    if (j === 0) {
      if (input.charCodeAt(i) === 0x0a) i++;
      else out[d++] = input.charCodeAt(i++);
      continue;
    }
    let fullCheck = false;
    let b = j === 1 ? hexNibble(input.charCodeAt(i)) : x2c(input.charCodeAt(i + j - 2), input.charCodeAt(i + j - 1));
    if (j === 4) fullCheck = true;
    else if (j === 5) fullCheck = input.charCodeAt(i) === 0x30;
    else if (j === 6) fullCheck = input.charCodeAt(i) === 0x30 && input.charCodeAt(i + 1) === 0x30;
    if (fullCheck && b > 0x00 && b < 0x5f && isF(input.charCodeAt(i + j - 3)) && isF(input.charCodeAt(i + j - 4))) b += 0x20;
    out[d++] = b;
    if (i + j < n && isSpace(input.charCodeAt(i + j))) j++;
    i += j;
  }
  return fromCodes(out, d);
};

function isF(c: number): boolean {
  return (c | 0x20) === 0x66;
}

export const cssDecodeTransformation: TransformationDefinition = { apply: cssDecode, triggerBytes: '\\' };

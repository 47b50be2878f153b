// t:sqlHexDecode: ModSecurity's sql_hex2bytes_inplace(): each 0x followed by pairs of hex digits is
// decoded pair by pair ("0x" without two digits stays). It walks a C string: a NUL ends the output.
import type { Transformation, TransformationDefinition } from './types.js';
import { isXDigit, x2c } from './c-ctype.js';
import { fromCodes, scratch } from './byte-string.js';

export const sqlHexDecode: Transformation = (input) => {
  const n = input.length;
  const out = scratch(n);
  let i = 0, d = 0;
  while (i < n && byteAt(input, i) !== 0) {
    if (byteAt(input, i) === 0x30 && (byteAt(input, i + 1) | 0x20) === 0x78 && isXDigit(byteAt(input, i + 2)) && isXDigit(byteAt(input, i + 3))) {
      i += 2;
      while (isXDigit(byteAt(input, i)) && isXDigit(byteAt(input, i + 1))) {
        out[d++] = x2c(byteAt(input, i), byteAt(input, i + 1));
        i += 2;
      }
      // The C loop then copies the next byte unexamined; at the end that is the terminator.
      if (byteAt(input, i) === 0) break;
    }
    out[d++] = byteAt(input, i++);
  }
  return fromCodes(out, d);
};

/** The byte at k, or the C string's terminating NUL past the end. */
function byteAt(s: string, k: number): number {
  return k < s.length ? s.charCodeAt(k) : 0;
}

// Only "0x"/"0X" followed by hex digits is decoded; a NUL ends the C string.
export const sqlHexDecodeTransformation: TransformationDefinition = { apply: sqlHexDecode, triggerBytes: '\0xX' };

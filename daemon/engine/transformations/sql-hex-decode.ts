// t:sqlHexDecode: ModSecurity's sql_hex2bytes_inplace(): each 0x followed by pairs of hex digits is
// decoded pair by pair ("0x" without two digits stays). It walks a C string: a NUL ends the output.
import type { Transformation } from './types.js';
import { isXDigit, x2c } from './c-ctype.js';
import { fromCodes, scratch } from './byte-string.js';

export const sqlHexDecode: Transformation = (input) => {
  const n = input.length;
  const at = (k: number) => (k < n ? input.charCodeAt(k) : 0);
  const out = scratch(n);
  let i = 0, d = 0;
  while (i < n && at(i) !== 0) {
    if (at(i) === 0x30 && (at(i + 1) | 0x20) === 0x78 && isXDigit(at(i + 2)) && isXDigit(at(i + 3))) {
      i += 2;
      while (isXDigit(at(i)) && isXDigit(at(i + 1))) {
        out[d++] = x2c(at(i), at(i + 1));
        i += 2;
      }
      // The C loop then copies the next byte unexamined; at the end that is the terminator.
      if (at(i) === 0) break;
    }
    out[d++] = at(i++);
  }
  return fromCodes(out, d);
};

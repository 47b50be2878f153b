// t:htmlEntityDecode: ModSecurity's html_entities_decode_inplace(): &#DDD; and &#xHH; (semicolon
// optional, value truncated to a byte) and only five named entities: quot amp lt gt nbsp.
import type { Transformation } from './types.js';
import { isAlnum, isDigit, isXDigit, strtolByte } from './c-ctype.js';
import { fromCodes } from './byte-string.js';

const NAMED: Record<string, number> = { quot: 0x22, amp: 0x26, lt: 0x3c, gt: 0x3e, nbsp: 0xa0 };

export const htmlEntityDecode: Transformation = (input) => {
  if (input.indexOf('&') < 0) return input;
  const n = input.length;
  const out = new Uint8Array(n);
  const at = (k: number) => input.charCodeAt(k);
  let i = 0, d = 0;
  while (i < n && d < n) {
    let copy = 1;
    if (at(i) === 0x26 && i + 1 < n) {
      let j = i + 1;
      if (at(j) === 0x23) {
        copy++;
        if (j + 1 < n) {
          j++;
          const hex = at(j) === 0x78 || at(j) === 0x58;
          if (hex) copy++;
          if (!hex || j + 1 < n) {
            if (hex) j++;
            const k = j;
            while (j < n && (hex ? isXDigit(at(j)) : isDigit(at(j)))) j++;
            if (j > k) {
              out[d++] = strtolByte(input.slice(k, j), hex ? 16 : 10);
              i = j < n && at(j) === 0x3b ? j + 1 : j;
              continue;
            }
          }
        }
      } else {
        const k = j;
        while (j < n && isAlnum(at(j))) j++;
        if (j > k) {
          const value = NAMED[input.slice(k, j).toLowerCase()];
          if (value !== undefined) {
            out[d++] = value;
            i = j < n && at(j) === 0x3b ? j + 1 : j;
            continue;
          }
          copy = j - k + 1; // not one we decode: copy '&' and the name as they are
        }
      }
    }
    for (let z = 0; z < copy && d < n; z++) out[d++] = at(i++);
  }
  return fromCodes(out, d);
};

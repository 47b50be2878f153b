// t:htmlEntityDecode: ModSecurity's html_entities_decode_inplace(): &#DDD; and &#xHH; (semicolon
// optional, value truncated to a byte) and only five named entities: quot amp lt gt nbsp. Text
// between entities is copied as slices; anything that is not a decodable entity stays as it was.
import type { Transformation, TransformationDefinition } from './types.js';
import { isAlnum, isDigit, isXDigit, strtolByte } from './c-ctype.js';

const NAMED: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', nbsp: '\xa0' };

export const htmlEntityDecode: Transformation = (input) => {
  let amp = input.indexOf('&');
  if (amp < 0) return input;
  const n = input.length;
  const parts: string[] = [];
  let from = 0;
  while (amp >= 0) {
    const decoded = decodeAt(input, amp, n);
    if (decoded === null) {
      amp = input.indexOf('&', amp + 1);
      continue;
    }
    parts.push(input.slice(from, amp), decoded.text);
    from = decoded.end;
    amp = input.indexOf('&', from);
  }
  if (parts.length === 0) return input;
  parts.push(input.slice(from));
  return parts.join('');
};

/** The entity at `i` (which holds '&'), or null when ModSecurity would copy it unchanged. */
function decodeAt(s: string, i: number, n: number): { text: string; end: number } | null {
  let j = i + 1;
  if (j >= n) return null;
  if (s.charCodeAt(j) === 0x23) {
    if (j + 1 >= n) return null;
    j++;
    const hex = s.charCodeAt(j) === 0x78 || s.charCodeAt(j) === 0x58;
    if (hex) {
      if (j + 1 >= n) return null;
      j++;
    }
    const k = j;
    while (j < n && (hex ? isXDigit(s.charCodeAt(j)) : isDigit(s.charCodeAt(j)))) j++;
    if (j === k) return null;
    const text = String.fromCharCode(strtolByte(s.slice(k, j), hex ? 16 : 10));
    return { text, end: j < n && s.charCodeAt(j) === 0x3b ? j + 1 : j };
  }
  const k = j;
  while (j < n && isAlnum(s.charCodeAt(j))) j++;
  if (j === k) return null;
  const text = NAMED[s.slice(k, j).toLowerCase()];
  if (text === undefined) return null;
  return { text, end: j < n && s.charCodeAt(j) === 0x3b ? j + 1 : j };
}

export const htmlEntityDecodeTransformation: TransformationDefinition = { apply: htmlEntityDecode, triggerBytes: '&' };

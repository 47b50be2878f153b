// t:utf8toUnicode: ModSecurity's utf8_unicode_inplace_ex(): each valid multi-byte UTF-8 sequence
// becomes %uXXXX (lower-case hex, at least four digits). Quirks kept: a lead byte whose continuation
// bytes are wrong is dropped with nothing in its place; overlong forms and surrogates are converted
// and then followed by their raw lead byte; lead bytes F5-F7 are echoed before their conversion;
// stray bytes 80-BF and F8-FF pass through; NULs are dropped.
import type { Transformation, TransformationDefinition } from './types.js';
import { HIGH } from './byte-ranges.js';

const WORK = /[\x00\x80-\xff]/;

export const utf8toUnicode: Transformation = (input) => {
  const first = input.search(WORK);
  if (first < 0) return input;
  let i = first;
  const n = input.length;
  const parts: string[] = [input.slice(0, i)];
  while (i < n) {
    const c = byteAt(input, i);
    let len = 0, d = 0;
    if ((c & 0x80) === 0) {
      if (c !== 0) parts.push(input[i]);
    } else if ((c & 0xe0) === 0xc0) {
      if (isContinuation(input, i + 1)) { len = 2; d = ((c & 0x1f) << 6) | (byteAt(input, i + 1) & 0x3f); }
      else len = -1;
    } else if ((c & 0xf0) === 0xe0) {
      if (isContinuation(input, i + 1) && isContinuation(input, i + 2)) { len = 3; d = ((c & 0x0f) << 12) | ((byteAt(input, i + 1) & 0x3f) << 6) | (byteAt(input, i + 2) & 0x3f); }
      else len = -1;
    } else if ((c & 0xf8) === 0xf0) {
      if (c >= 0xf5) parts.push(input[i]);
      if (isContinuation(input, i + 1) && isContinuation(input, i + 2) && isContinuation(input, i + 3)) {
        len = 4;
        d = ((c & 0x07) << 18) | ((byteAt(input, i + 1) & 0x3f) << 12) | ((byteAt(input, i + 2) & 0x3f) << 6) | (byteAt(input, i + 3) & 0x3f);
      } else len = -1;
    } else {
      parts.push(input[i]);
    }
    if (len > 0) parts.push('%u' + d.toString(16).padStart(4, '0'));
    if (d >= 0xd800 && d <= 0xdfff) parts.push(input[i]);
    if ((len === 4 && d < 0x10000) || (len === 3 && d < 0x800) || (len === 2 && d < 0x80)) parts.push(input[i]);
    i += len > 0 ? len : 1;
  }
  return parts.join('');
};

/** The byte at k, or the C string's terminating NUL past the end. */
function byteAt(s: string, k: number): number {
  return k < s.length ? s.charCodeAt(k) : 0;
}

function isContinuation(s: string, k: number): boolean {
  return (byteAt(s, k) & 0xc0) === 0x80;
}

export const utf8toUnicodeTransformation: TransformationDefinition = { apply: utf8toUnicode, triggerBytes: '\0' + HIGH };

// @validateUtf8Encoding: matches on the first invalid UTF-8 sequence: a missing or wrong
// continuation byte, an invalid lead byte (80-BF, F8-FF), lead bytes F5-F7 (beyond U+10FFFF),
// surrogates, or an overlong form.
import type { OperatorDefinition, OperatorFactory } from './types.js';

export const validateUtf8Encoding: OperatorFactory = () => (input) => {
  const n = input.length;
  let i = 0;
  while (i < n) {
    const c = input.charCodeAt(i);
    if (c < 0x80) { i++; continue; }
    let len: number, d: number;
    if ((c & 0xe0) === 0xc0) {
      if (!isContinuation(input, i + 1)) return true;
      len = 2;
      d = ((c & 0x1f) << 6) | (input.charCodeAt(i + 1) & 0x3f);
    } else if ((c & 0xf0) === 0xe0) {
      if (!isContinuation(input, i + 1) || !isContinuation(input, i + 2)) return true;
      len = 3;
      d = ((c & 0x0f) << 12) | ((input.charCodeAt(i + 1) & 0x3f) << 6) | (input.charCodeAt(i + 2) & 0x3f);
    } else if ((c & 0xf8) === 0xf0) {
      if (c >= 0xf5) return true;
      if (!isContinuation(input, i + 1) || !isContinuation(input, i + 2) || !isContinuation(input, i + 3)) return true;
      len = 4;
      d = ((c & 0x07) << 18) | ((input.charCodeAt(i + 1) & 0x3f) << 12) | ((input.charCodeAt(i + 2) & 0x3f) << 6) | (input.charCodeAt(i + 3) & 0x3f);
    } else {
      return true;
    }
    if (d >= 0xd800 && d <= 0xdfff) return true;
    if ((len === 2 && d < 0x80) || (len === 3 && d < 0x800) || (len === 4 && d < 0x10000)) return true;
    i += len;
  }
  return false;
};

function isContinuation(s: string, k: number): boolean {
  return k < s.length && (s.charCodeAt(k) & 0xc0) === 0x80;
}

export const validateUtf8EncodingOperator: OperatorDefinition = { create: validateUtf8Encoding, pure: false, effectsOnMatch: false, requiredBytes: null };

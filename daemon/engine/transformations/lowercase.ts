// t:lowercase: C tolower() on every byte, so only A-Z change (never Latin-1 letters).
import type { Transformation } from './types.js';
import { byteTable, mapBytes } from './byte-string.js';

const LOWER = byteTable((c) => (c >= 0x41 && c <= 0x5a ? c + 0x20 : c));

export const lowercase: Transformation = (input) => {
  // Pure-ASCII strings (the common case) can use the native conversion, which agrees on ASCII.
  for (let i = 0; i < input.length; i++) {
    if (input.charCodeAt(i) >= 0x80) return mapBytes(input, LOWER);
  }
  return input.toLowerCase();
};

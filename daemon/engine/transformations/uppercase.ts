// t:uppercase: C toupper() on every byte, so only a-z change.
import type { Transformation } from './types.js';
import { byteTable, mapBytes } from './byte-string.js';

const UPPER = byteTable((c) => (c >= 0x61 && c <= 0x7a ? c - 0x20 : c));

export const uppercase: Transformation = (input) => mapBytes(input, UPPER);

// t:parityEven7bit: bit 7 set so that the byte has even parity, computed as ModSecurity does
// (over all eight bits of the original byte).
import type { Transformation, TransformationDefinition } from './types.js';
import { byteTable, mapBytes } from './byte-string.js';

const TABLE = byteTable((x) => (((0x6996 >> ((x ^ (x >> 4)) & 0xf)) & 1) ? x | 0x80 : x & 0x7f));

export const parityEven7bit: Transformation = (input) => mapBytes(input, TABLE);

export const parityEven7bitTransformation: TransformationDefinition = { apply: parityEven7bit, triggerBytes: null };

// t:parityOdd7bit: bit 7 set so that the byte has odd parity (ModSecurity's computation).
import type { Transformation, TransformationDefinition } from './types.js';
import { byteTable, mapBytes } from './byte-string.js';

const TABLE = byteTable((x) => (((0x6996 >> ((x ^ (x >> 4)) & 0xf)) & 1) ? x & 0x7f : x | 0x80));

export const parityOdd7bit: Transformation = (input) => mapBytes(input, TABLE);

export const parityOdd7bitTransformation: TransformationDefinition = { apply: parityOdd7bit, triggerBytes: null };

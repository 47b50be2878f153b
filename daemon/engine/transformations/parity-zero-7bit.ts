// t:parityZero7bit: clears bit 7 of every byte.
import type { Transformation, TransformationDefinition } from './types.js';
import { byteTable, mapBytes } from './byte-string.js';
import { HIGH } from './byte-ranges.js';

const TABLE = byteTable((x) => x & 0x7f);

export const parityZero7bit: Transformation = (input) => mapBytes(input, TABLE);

export const parityZero7bitTransformation: TransformationDefinition = { apply: parityZero7bit, triggerBytes: HIGH };

// t:hexDecode: ModSecurity's hex2bytes_inplace(): pairs are decoded without validation (x2c on any
// bytes), and an odd last byte is dropped.
import type { Transformation, TransformationDefinition } from './types.js';
import { x2c } from './c-ctype.js';
import { fromCodes, scratch } from './byte-string.js';

export const hexDecode: Transformation = (input) => {
  const n = input.length;
  const out = scratch(n >> 1);
  let j = 0;
  for (let i = 0; i + 2 <= n; i += 2) out[j++] = x2c(input.charCodeAt(i), input.charCodeAt(i + 1));
  return fromCodes(out, j);
};

export const hexDecodeTransformation: TransformationDefinition = { apply: hexDecode, triggerBytes: null };

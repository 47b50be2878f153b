// @validateUrlEncoding: matches when a '%' is not followed by two hex digits (including a '%' too
// close to the end of the input).
import type { OperatorDefinition, OperatorFactory } from './types.js';

const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

export const validateUrlEncoding: OperatorFactory = () => (input) => {
  for (let i = input.indexOf('%'); i >= 0; i = input.indexOf('%', i + 3)) {
    if (i + 2 >= input.length) return true;
    if (!isHex(input.charCodeAt(i + 1)) || !isHex(input.charCodeAt(i + 2))) return true;
  }
  return false;
};

export const validateUrlEncodingOperator: OperatorDefinition = { create: validateUrlEncoding, pure: false, effectsOnMatch: false, requiredBytes: null };

// t:base64Encode: standard alphabet with padding.
import type { Transformation } from './types.js';

export const base64Encode: Transformation = (input) => Buffer.from(input, 'latin1').toString('base64');

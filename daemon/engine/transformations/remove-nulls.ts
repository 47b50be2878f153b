// t:removeNulls: removes NUL bytes.
import type { Transformation } from './types.js';

export const removeNulls: Transformation = (input) => (input.indexOf('\0') < 0 ? input : input.split('\0').join(''));

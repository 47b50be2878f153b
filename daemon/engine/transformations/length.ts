// t:length: the byte length as decimal text.
import type { Transformation } from './types.js';

export const length: Transformation = (input) => String(input.length);

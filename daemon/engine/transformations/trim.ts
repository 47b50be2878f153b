// t:trim: trimLeft then trimRight.
import type { Transformation } from './types.js';
import { trimLeft } from './trim-left.js';
import { trimRight } from './trim-right.js';

export const trim: Transformation = (input) => trimRight(trimLeft(input));

// t:trim: trimLeft then trimRight.
import type { Transformation, TransformationDefinition } from './types.js';
import { trimLeft } from './trim-left.js';
import { trimRight } from './trim-right.js';
import { SPACE } from './byte-ranges.js';

export const trim: Transformation = (input) => trimRight(trimLeft(input));

export const trimTransformation: TransformationDefinition = { apply: trim, triggerBytes: SPACE };

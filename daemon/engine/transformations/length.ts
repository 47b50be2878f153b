// t:length: the byte length as decimal text.
import type { Transformation, TransformationDefinition } from './types.js';

export const length: Transformation = (input) => String(input.length);

export const lengthTransformation: TransformationDefinition = { apply: length, triggerBytes: null };

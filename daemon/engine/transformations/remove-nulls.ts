// t:removeNulls: removes NUL bytes.
import type { Transformation, TransformationDefinition } from './types.js';

export const removeNulls: Transformation = (input) => (input.indexOf('\0') < 0 ? input : input.split('\0').join(''));

export const removeNullsTransformation: TransformationDefinition = { apply: removeNulls, triggerBytes: '\0' };

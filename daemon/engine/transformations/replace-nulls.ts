// t:replaceNulls: NUL bytes become spaces.
import type { Transformation, TransformationDefinition } from './types.js';

export const replaceNulls: Transformation = (input) => (input.indexOf('\0') < 0 ? input : input.split('\0').join(' '));

export const replaceNullsTransformation: TransformationDefinition = { apply: replaceNulls, triggerBytes: '\0' };

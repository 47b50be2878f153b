// t:trimLeft: drops leading isspace() bytes (not NBSP).
import type { Transformation, TransformationDefinition } from './types.js';
import { isSpace } from './c-ctype.js';
import { SPACE } from './byte-ranges.js';

export const trimLeft: Transformation = (input) => {
  let i = 0;
  while (i < input.length && isSpace(input.charCodeAt(i))) i++;
  return i === 0 ? input : input.slice(i);
};

export const trimLeftTransformation: TransformationDefinition = { apply: trimLeft, triggerBytes: SPACE };

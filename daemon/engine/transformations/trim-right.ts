// t:trimRight: drops trailing isspace() bytes (not NBSP).
import type { Transformation, TransformationDefinition } from './types.js';
import { isSpace } from './c-ctype.js';
import { SPACE } from './byte-ranges.js';

export const trimRight: Transformation = (input) => {
  let end = input.length;
  while (end > 0 && isSpace(input.charCodeAt(end - 1))) end--;
  return end === input.length ? input : input.slice(0, end);
};

export const trimRightTransformation: TransformationDefinition = { apply: trimRight, triggerBytes: SPACE };

// t:trimLeft: drops leading isspace() bytes (not NBSP).
import type { Transformation } from './types.js';
import { isSpace } from './c-ctype.js';

export const trimLeft: Transformation = (input) => {
  let i = 0;
  while (i < input.length && isSpace(input.charCodeAt(i))) i++;
  return i === 0 ? input : input.slice(i);
};

// t:removeWhitespace: removes isspace() bytes and NBSP (0xa0).
import type { Transformation, TransformationDefinition } from './types.js';
import { isSpace } from './c-ctype.js';
import { SPACE } from './byte-ranges.js';

export const removeWhitespace: Transformation = (input) => {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (isSpace(c) || c === 0xa0) {
      if (i > start) parts.push(input.slice(start, i));
      start = i + 1;
    }
  }
  if (start === 0) return input;
  parts.push(input.slice(start));
  return parts.join('');
};

export const removeWhitespaceTransformation: TransformationDefinition = { apply: removeWhitespace, triggerBytes: SPACE + '\xa0' };

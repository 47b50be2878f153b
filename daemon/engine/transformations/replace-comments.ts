// t:replaceComments: each /* ... */ becomes one space; an unterminated comment becomes one space too.
import type { Transformation, TransformationDefinition } from './types.js';

export const replaceComments: Transformation = (input) => {
  let start = input.indexOf('/*');
  if (start < 0) return input;
  const parts: string[] = [];
  let from = 0;
  while (start >= 0) {
    parts.push(input.slice(from, start));
    const end = input.indexOf('*/', start + 2);
    parts.push(' ');
    if (end < 0) return parts.join('');
    from = end + 2;
    start = input.indexOf('/*', from);
  }
  parts.push(input.slice(from));
  return parts.join('');
};

export const replaceCommentsTransformation: TransformationDefinition = { apply: replaceComments, triggerBytes: '*' };

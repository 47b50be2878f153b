// t:compressWhitespace: each run of isspace() bytes or NBSP (0xa0) becomes one space.
import type { Transformation, TransformationDefinition } from './types.js';
import { isSpace } from './c-ctype.js';
import { SPACE } from './byte-ranges.js';

export const compressWhitespace: Transformation = (input) => {
  const n = input.length;
  // Fast path: nothing but single plain spaces between other bytes.
  let i = 0;
  for (; i < n; i++) {
    const c = input.charCodeAt(i);
    if (c === 0x20) {
      if (i + 1 < n && isBlank(input.charCodeAt(i + 1))) break;
    } else if (isBlank(c)) break;
  }
  if (i === n) return input;
  const parts: string[] = [];
  let start = 0;
  i = 0;
  while (i < n) {
    if (!isBlank(input.charCodeAt(i))) { i++; continue; }
    parts.push(input.slice(start, i), ' ');
    while (i < n && isBlank(input.charCodeAt(i))) i++;
    start = i;
  }
  parts.push(input.slice(start));
  return parts.join('');
};

function isBlank(c: number): boolean {
  return isSpace(c) || c === 0xa0;
}

// A single plain space between other bytes stays, but a space is the cheapest sound trigger.
export const compressWhitespaceTransformation: TransformationDefinition = { apply: compressWhitespace, triggerBytes: SPACE + '\xa0' };

// t:lowercase: C tolower() on every byte, so only A-Z change (never Latin-1 letters).
// String#toLowerCase is native and length-preserving on byte strings; it agrees with tolower()
// everywhere except Latin-1 capitals (common: 0xC3 leads every UTF-8 é, ü, ...), which are put back.
import type { Transformation, TransformationDefinition } from './types.js';
import { UPPER } from './byte-ranges.js';

const LATIN1_UPPER = /[\xc0-\xd6\xd8-\xde]/;
const LATIN1_UPPER_RUNS = /[\xc0-\xd6\xd8-\xde]+/g;

export const lowercase: Transformation = (input) => {
  const lower = input.toLowerCase();
  if (lower === input || !LATIN1_UPPER.test(input)) return lower;
  let out = '';
  let from = 0;
  LATIN1_UPPER_RUNS.lastIndex = 0;
  for (let m = LATIN1_UPPER_RUNS.exec(input); m !== null; m = LATIN1_UPPER_RUNS.exec(input)) {
    out += lower.slice(from, m.index) + m[0];
    from = m.index + m[0].length;
  }
  return out + lower.slice(from);
};

export const lowercaseTransformation: TransformationDefinition = { apply: lowercase, triggerBytes: UPPER };

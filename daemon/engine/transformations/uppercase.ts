// t:uppercase: C toupper() on every byte, so only a-z change.
import type { Transformation, TransformationDefinition } from './types.js';
import { LOWER } from './byte-ranges.js';

// Bytes String#toUpperCase would change besides a-z (µ, ß and ÿ even leave the byte range).
const LATIN1_LOWER = /[\xb5\xdf-\xf6\xf8-\xff]/;
const LOWER_RUN = /[a-z]+/g;

export const uppercase: Transformation = (input) => {
  if (!LATIN1_LOWER.test(input)) return input.toUpperCase();
  return input.replace(LOWER_RUN, (run) => run.toUpperCase());
};

export const uppercaseTransformation: TransformationDefinition = { apply: uppercase, triggerBytes: LOWER };

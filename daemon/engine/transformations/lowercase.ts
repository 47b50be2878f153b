// t:lowercase: C tolower() on every byte, so only A-Z change (never Latin-1 letters).
import type { Transformation } from './types.js';

// The only bytes String#toLowerCase changes besides A-Z: Latin-1 capitals.
const LATIN1_UPPER = /[\xc0-\xd6\xd8-\xde]/;
const UPPER_RUN = /[A-Z]+/g;

export const lowercase: Transformation = (input) => {
  // Pure-ASCII strings (the common case) can use the native conversion, which agrees on ASCII;
  // otherwise only A-Z runs are lowered, leaving Latin-1 letters as C's tolower() does.
  if (!LATIN1_UPPER.test(input)) return input.toLowerCase();
  return input.replace(UPPER_RUN, (run) => run.toLowerCase());
};

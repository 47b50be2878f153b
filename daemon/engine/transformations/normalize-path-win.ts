// t:normalizePathWin / t:normalisePathWin: normalizePath after turning backslashes into slashes.
// Without a backslash it is exactly normalizePath (the only differences are the backslash
// conversion and backslash as a separator), which has a cheap "nothing to do" check.
import type { Transformation, TransformationDefinition } from './types.js';
import { normalizePathBytes } from './normalize-path.js';

export const normalizePathWin: Transformation = (input) => normalizePathBytes(input, input.indexOf('\\') >= 0);

// As normalizePath, once each backslash counts as a '/'.
export const normalizePathWinTransformation: TransformationDefinition = { apply: normalizePathWin, triggerBytes: '/.\\' };

// t:normalizePathWin / t:normalisePathWin: normalizePath after turning backslashes into slashes.
import type { Transformation } from './types.js';
import { normalizePathBytes } from './normalize-path.js';

export const normalizePathWin: Transformation = (input) => normalizePathBytes(input, true);

// @strmatch: case-sensitive substring search for one phrase (|hex| and escapes as in @pm).
import type { OperatorDefinition, OperatorFactory } from './types.js';
import { parsePmContent } from './pm-content.js';

export const strmatch: OperatorFactory = (param) => {
  const needle = parsePmContent(param);
  if (needle === null) throw new Error(`strmatch: invalid pattern "${param}"`);
  return (input) => input.includes(needle);
};

export const strmatchOperator: OperatorDefinition = { create: strmatch, pure: false, effectsOnMatch: false, requiredBytes: null };

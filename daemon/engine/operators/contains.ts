// @contains: case-sensitive substring test; an empty parameter always matches.
import type { OperatorDefinition, OperatorFactory } from './types.js';
import { macroParam } from './macro-param.js';

export const contains: OperatorFactory = (param) => {
  const text = macroParam(param);
  return (input, runtime) => input.includes(text(runtime));
};

export const containsOperator: OperatorDefinition = { create: contains, pure: true, effectsOnMatch: false, requiredBytes: null };

// @streq: case-sensitive equality with the (macro-expanded) parameter.
import type { OperatorDefinition, OperatorFactory } from './types.js';
import { macroParam } from './macro-param.js';

export const streq: OperatorFactory = (param) => {
  const text = macroParam(param);
  return (input, runtime) => input === text(runtime);
};

export const streqOperator: OperatorDefinition = { create: streq, pure: true, effectsOnMatch: false, requiredBytes: null };

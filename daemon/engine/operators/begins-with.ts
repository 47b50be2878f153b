// @beginsWith: case-sensitive prefix test; an empty parameter always matches.
import type { OperatorDefinition, OperatorFactory } from './types.js';
import { macroParam } from './macro-param.js';

export const beginsWith: OperatorFactory = (param) => {
  const text = macroParam(param);
  return (input, runtime) => input.startsWith(text(runtime));
};

export const beginsWithOperator: OperatorDefinition = { create: beginsWith, pure: true, effectsOnMatch: false, requiredBytes: null };

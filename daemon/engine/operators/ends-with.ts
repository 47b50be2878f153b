// @endsWith: case-sensitive suffix test; an empty parameter always matches.
import type { OperatorDefinition, OperatorFactory } from './types.js';
import { macroParam } from './macro-param.js';

export const endsWith: OperatorFactory = (param) => {
  const text = macroParam(param);
  return (input, runtime) => input.endsWith(text(runtime));
};

export const endsWithOperator: OperatorDefinition = { create: endsWith, pure: true, effectsOnMatch: false, requiredBytes: null };

// @within: true when the input occurs inside the (macro-expanded) parameter. An empty input matches.
import type { OperatorDefinition, OperatorFactory } from './types.js';
import { macroParam } from './macro-param.js';

export const within: OperatorFactory = (param) => {
  const text = macroParam(param);
  return (input, runtime) => input.length === 0 || text(runtime).includes(input);
};

export const withinOperator: OperatorDefinition = { create: within, pure: true, effectsOnMatch: false, requiredBytes: null };

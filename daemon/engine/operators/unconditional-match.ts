// @unconditionalMatch: always true.
import type { OperatorDefinition, OperatorFactory } from './types.js';

export const unconditionalMatch: OperatorFactory = () => () => true;

export const unconditionalMatchOperator: OperatorDefinition = { create: unconditionalMatch, pure: true, effectsOnMatch: false, requiredBytes: null };

// @noMatch: always false.
import type { OperatorDefinition, OperatorFactory } from './types.js';

export const noMatch: OperatorFactory = () => () => false;

export const noMatchOperator: OperatorDefinition = { create: noMatch, pure: true, effectsOnMatch: false, requiredBytes: null };

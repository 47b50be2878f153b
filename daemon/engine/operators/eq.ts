// @eq: atoi(input) === atoi(parameter), as ModSecurity compares.
import { numericOperator } from './numeric-compare.js';
import type { OperatorDefinition } from './types.js';

export const eq = numericOperator((left, right) => left === right);

export const eqOperator: OperatorDefinition = { create: eq, pure: true, effectsOnMatch: false, requiredBytes: null };

// @lt: atoi(input) < atoi(parameter), as ModSecurity compares.
import { numericOperator } from './numeric-compare.js';
import type { OperatorDefinition } from './types.js';

export const lt = numericOperator((left, right) => left < right);

export const ltOperator: OperatorDefinition = { create: lt, pure: true, effectsOnMatch: false, requiredBytes: null };

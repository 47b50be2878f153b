// @gt: atoi(input) > atoi(parameter), as ModSecurity compares.
import { numericOperator } from './numeric-compare.js';
import type { OperatorDefinition } from './types.js';

export const gt = numericOperator((left, right) => left > right);

export const gtOperator: OperatorDefinition = { create: gt, pure: true, effectsOnMatch: false, requiredBytes: null };

// @le: atoi(input) <= atoi(parameter), as ModSecurity compares.
import { numericOperator } from './numeric-compare.js';
import type { OperatorDefinition } from './types.js';

export const le = numericOperator((left, right) => left <= right);

export const leOperator: OperatorDefinition = { create: le, pure: true, effectsOnMatch: false, requiredBytes: null };

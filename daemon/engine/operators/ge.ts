// @ge: atoi(input) >= atoi(parameter), as ModSecurity compares.
import { numericOperator } from './numeric-compare.js';
import type { OperatorDefinition } from './types.js';

export const ge = numericOperator((left, right) => left >= right);

export const geOperator: OperatorDefinition = { create: ge, pure: true, effectsOnMatch: false, requiredBytes: null };

// @lt: atoi(input) < atoi(parameter), as ModSecurity compares.
import { numericOperator } from './numeric-compare.js';

export const lt = numericOperator((left, right) => left < right);

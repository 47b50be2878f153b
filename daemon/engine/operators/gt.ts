// @gt: atoi(input) > atoi(parameter), as ModSecurity compares.
import { numericOperator } from './numeric-compare.js';

export const gt = numericOperator((left, right) => left > right);

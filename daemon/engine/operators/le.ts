// @le: atoi(input) <= atoi(parameter), as ModSecurity compares.
import { numericOperator } from './numeric-compare.js';

export const le = numericOperator((left, right) => left <= right);

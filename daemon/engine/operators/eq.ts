// @eq: atoi(input) === atoi(parameter), as ModSecurity compares.
import { numericOperator } from './numeric-compare.js';

export const eq = numericOperator((left, right) => left === right);

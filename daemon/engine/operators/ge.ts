// @ge: atoi(input) >= atoi(parameter), as ModSecurity compares.
import { numericOperator } from './numeric-compare.js';

export const ge = numericOperator((left, right) => left >= right);

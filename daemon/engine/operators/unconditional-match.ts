// @unconditionalMatch: always true.
import type { OperatorFactory } from './types.js';

export const unconditionalMatch: OperatorFactory = () => () => true;

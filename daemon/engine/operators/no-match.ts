// @noMatch: always false.
import type { OperatorFactory } from './types.js';

export const noMatch: OperatorFactory = () => () => false;

// @detectXSS: libinjection's XSS detector.
import type { OperatorDefinition, OperatorFactory } from './types.js';
import { detectXSS as libinjectionXSS } from '../libinjection/index.js';

export const detectXSS: OperatorFactory = () => (input) => libinjectionXSS(input);

export const detectXSSOperator: OperatorDefinition = { create: detectXSS, pure: false, effectsOnMatch: false, requiredBytes: null };

// @detectXSS: libinjection's XSS detector.
import type { OperatorFactory } from './types.js';
import { detectXSS as libinjectionXSS } from '../libinjection/index.js';

export const detectXSS: OperatorFactory = () => (input) => libinjectionXSS(input);

// @detectSQLi: libinjection's SQLi detector; with `capture`, TX.0 is the fingerprint.
import type { OperatorFactory } from './types.js';
import { detectSQLi as libinjectionSQLi } from '../libinjection/index.js';

export const detectSQLi: OperatorFactory = () => (input, runtime) => {
  const result = libinjectionSQLi(input);
  if (!result.isSqli) return false;
  if (runtime.capturing) runtime.setCapture(0, result.fingerprint);
  return true;
};

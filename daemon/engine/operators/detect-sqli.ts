// @detectSQLi: libinjection's SQLi detector; with `capture`, TX.0 is the fingerprint. The result
// is a pure function of the value and costs ~0.4-0.6 us, so it is memoized per transaction
// (repeated body values, a multiMatch rule meeting the same string again).
import type { OperatorDefinition, OperatorFactory } from './types.js';
import { detectSQLi as libinjectionSQLi } from '../libinjection/index.js';
import { memoPerTransaction } from './transaction-memo.js';

export const detectSQLi: OperatorFactory = () => {
  const analyse = memoPerTransaction(libinjectionSQLi);
  return (input, runtime) => {
    const result = analyse(input, runtime);
    if (!result.isSqli) return false;
    if (runtime.capturing) runtime.setCapture(0, result.fingerprint);
    return true;
  };
};

export const detectSQLiOperator: OperatorDefinition = { create: detectSQLi, pure: false, effectsOnMatch: false, requiredBytes: null };

// `@counted needle`: @contains that records every input it is called with, for tests that count
// operator runs (miss bits within a transaction, the miss memo across transactions).
import type { OperatorFactory } from '../../../../daemon/engine/operators/types.js';
import { testOperator, testRegistries } from './test-registries.js';

export function counting(): { calls: string[]; registries: typeof testRegistries } {
  const calls: string[] = [];
  const contains: OperatorFactory = (param) => (input, runtime) => {
    calls.push(input);
    const needle = runtime.expandMacros(param);
    if (!input.includes(needle)) return false;
    if (runtime.capturing) runtime.setCapture(0, input);
    return true;
  };
  const operators = new Map(testRegistries.operators);
  operators.set('counted', testOperator(contains));
  return { calls, registries: { ...testRegistries, operators } };
}

// The shared shape of @eq @ge @gt @le @lt: both sides through atoi(), parameter macro-expanded.
import type { OperatorFactory } from './types.js';
import { atoi } from './c-atoi.js';
import { macroParam } from './macro-param.js';

export function numericOperator(test: (left: number, right: number) => boolean): OperatorFactory {
  return (param) => {
    if (!param.includes('%{')) {
      const right = atoi(param);
      return (input) => test(atoi(input), right);
    }
    const text = macroParam(param);
    return (input, runtime) => test(atoi(input), atoi(text(runtime)));
  };
}

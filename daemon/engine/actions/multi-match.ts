// multiMatch — run the operator after every transformation, not just after the last.
import type { ActionDefinition } from './action.js';

export const multiMatchAction: ActionDefinition = {
  name: 'multimatch',
  kind: 'data',
  reach: 'rule',
  param: 'none',
  apply(rule) {
    rule.multiMatch = true;
  },
};

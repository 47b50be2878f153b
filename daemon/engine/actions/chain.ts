// chain — the next rule must also match before this rule's disruptive action runs.
import type { ActionDefinition } from './action.js';

export const chainAction: ActionDefinition = {
  name: 'chain',
  kind: 'flow',
  reach: 'rule',
  param: 'none',
  apply(rule) {
    rule.chained = true;
  },
};

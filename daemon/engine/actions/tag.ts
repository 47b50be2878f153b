// tag:'text' — a rule may carry many tags; ctl and SecRuleRemoveByTag select by them.
import type { ActionDefinition } from './action.js';

export const tagAction: ActionDefinition = {
  name: 'tag',
  kind: 'metadata',
  reach: 'rule',
  param: 'required',
  apply(rule, param) {
    rule.tags.push(param!);
  },
};

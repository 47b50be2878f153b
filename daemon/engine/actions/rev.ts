// rev:'2' — the rule's revision.
import type { ActionDefinition } from './action.js';

export const revAction: ActionDefinition = {
  name: 'rev',
  kind: 'metadata',
  reach: 'rule',
  param: 'required',
  apply(rule, param) {
    rule.rev = param!;
  },
};

// skip:N — after a match, skip the next N rules (a chain counts as one).
import type { ActionDefinition } from './action.js';

export const skipAction: ActionDefinition = {
  name: 'skip',
  kind: 'flow',
  reach: 'flow',
  param: 'required',
  apply(rule, param) {
    if (!/^\d+$/.test(param!.trim()) || Number(param) < 1) throw new Error(`skip needs a positive count, got "${param}"`);
    rule.skip = Number(param!.trim());
  },
};

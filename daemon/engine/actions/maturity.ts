// maturity:1-9 — how well tested the rule is (metadata only).
import type { ActionDefinition } from './action.js';

export const maturityAction: ActionDefinition = {
  name: 'maturity',
  kind: 'metadata',
  reach: 'rule',
  param: 'required',
  apply(rule, param) {
    if (!/^[1-9]$/.test(param!.trim())) throw new Error(`maturity must be 1-9, got "${param}"`);
    rule.maturity = Number(param!.trim());
  },
};

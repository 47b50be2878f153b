// accuracy:1-9 — how likely a match is a true positive (metadata only).
import type { ActionDefinition } from './action.js';

export const accuracyAction: ActionDefinition = {
  name: 'accuracy',
  kind: 'metadata',
  reach: 'rule',
  param: 'required',
  apply(rule, param) {
    if (!/^[1-9]$/.test(param!.trim())) throw new Error(`accuracy must be 1-9, got "${param}"`);
    rule.accuracy = Number(param!.trim());
  },
};

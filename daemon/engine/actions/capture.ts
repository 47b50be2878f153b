// capture — the operator stores what it matched in TX:0 (and groups in TX:1..9).
import type { ActionDefinition } from './action.js';

export const captureAction: ActionDefinition = {
  name: 'capture',
  kind: 'data',
  reach: 'transaction',
  param: 'none',
  apply(rule) {
    rule.capture = true;
  },
};

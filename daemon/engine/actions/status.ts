// status:NNN — the HTTP status a deny answers with.
import type { ActionDefinition } from './action.js';

export const statusAction: ActionDefinition = {
  name: 'status',
  kind: 'data',
  reach: 'rule',
  param: 'required',
  apply(rule, param) {
    const text = param!.trim();
    if (!/^\d{3}$/.test(text)) throw new Error(`status must be a 3-digit HTTP status, got "${param}"`);
    rule.status = Number(text);
  },
};

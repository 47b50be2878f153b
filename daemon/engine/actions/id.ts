// id:N — the rule's unique number (required on rules that start a chain).
import type { ActionDefinition } from './action.js';

export const idAction: ActionDefinition = {
  name: 'id',
  kind: 'metadata',
  reach: 'rule',
  param: 'required',
  apply(rule, param) {
    if (!/^\d+$/.test(param!.trim())) throw new Error(`id must be a positive integer, got "${param}"`);
    const id = Number(param!.trim());
    if (id <= 0) throw new Error('id must be greater than 0');
    rule.id = id;
  },
};
